// The digest of a Vitest JSON report that `npm test` prints at the end: the CI log keeps only
// its tail, and a failed server test's details scroll far out of it.
import { readFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";

interface Report {
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

/** Each failed test of a report with the start of its error; a file that failed to load too. */
export function printVitestDigest(step: string, file: string) {
  let report: Report;
  try {
    report = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return;
  }
  const lines: string[] = [];
  const start = (text: string) =>
    stripVTControlCharacters(text)
      .split("\n")
      .filter((l) => !l.includes("node_modules"))
      .slice(0, 12)
      .map((l) => `    ${l}`);
  for (const f of report.testResults) {
    const where = f.name.replace(process.cwd() + "/", "");
    const failed = f.assertionResults.filter((a) => a.status === "failed");
    for (const a of failed)
      lines.push(`FAILED ${where} > ${a.fullName}`, ...start(a.failureMessages?.[0] ?? ""));
    if (f.status === "failed" && !failed.length) lines.push(`FAILED ${where}`, ...start(f.message ?? ""));
  }
  if (!lines.length) return;
  console.log(`\n=== ${step} that failed ===`);
  for (const l of lines) console.log(l);
}
