// The digest of a Playwright JSON report that `npm test` prints after the browser tests.
import { readFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";

interface Suite {
  title: string;
  suites?: Suite[];
  specs?: {
    title: string;
    file: string;
    line: number;
    /** Playwright's verdict: expected (a test.fail() that failed too), unexpected, flaky, skipped. */
    tests: { status: string; results: { status: string; error?: { message?: string } }[] }[];
  }[];
}

/**
 * The browser tests that failed or needed their retry, each with the start of its first error:
 * printed last, so the end of a CI log says what broke (the list reporter's details scroll away).
 */
export function printBrowserDigest(file = "test-results/e2e-report.json") {
  let report: { suites: Suite[] };
  try {
    report = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return;
  }
  const lines: string[] = [];
  const walk = (suite: Suite, path: string[]) => {
    for (const s of suite.suites ?? []) walk(s, [...path, s.title]);
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests) {
        if (t.status !== "unexpected" && t.status !== "flaky") continue;
        const bad = t.results.filter((r) => r.status !== "passed" && r.status !== "skipped");
        const outcome = t.status === "flaky" ? "FLAKY" : "FAILED";
        lines.push(
          `${outcome} ${spec.file}:${spec.line} ${[...path, spec.title].filter(Boolean).join(" > ")}`,
        );
        const message = stripVTControlCharacters(bad[0]?.error?.message ?? "");
        lines.push(
          ...message
            .split("\n")
            .slice(0, 12)
            .map((l) => `    ${l}`),
        );
      }
  };
  for (const s of report.suites) walk(s, []);
  if (!lines.length) return;
  console.log("\n=== browser tests that failed or were retried ===");
  console.log(lines.join("\n"));
}
