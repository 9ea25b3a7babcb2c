// The status badges' latency under load (issue 36): autocannon, 50 connections for 10 s on the
// report's and the device's badge of a running portal. autocannon reports no p95; p97.5 is
// printed as its upper bound (the issue asks p95 ≤ 50 ms). Run alone with
// `node scripts/bench/badges.ts`: it starts the portal twice on a temporary data directory,
// with the answer microcache as configured (1 s) and without it (every badge reads the database).
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DEMO } from "../../server/seed/demo.ts";

const BADGES = [
  ["report badge", `/public/report/${DEMO.reportHash}/badge.svg`],
  ["device badge", `/public/device/${DEMO.raDeviceHash}/badge.svg`],
] as const;

/** Prints one row per badge for the portal at `base`; `label` says how it was set up. */
export async function badgesBench(base: string, label = "answer cache 1 s") {
  for (const [name, path] of BADGES) {
    const r = await autocannon({ url: base + path, connections: 50, duration: 10 });
    const l = r.latency as unknown as Record<string, number>;
    console.log(
      `| ${name}, ${label} | ${Math.round(r.requests.average)} | ${l["p50"]} | ${l["p90"]} | ${l["p97_5"]} | ${l["p99"]} | ${r.non2xx + r.errors} |`,
    );
  }
}

export const BADGE_TABLE_HEAD =
  "\n| badge | req/s | p50 (ms) | p90 (ms) | p97.5 ≥ p95 (ms) | p99 (ms) | errors |\n|---|---:|---:|---:|---:|---:|---:|";

/** Starts the portal (no simulator, no static build needed) and waits for its health check. */
async function portal(port: number, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), "portal-badges-"));
  const server = spawn(process.execPath, ["server/index.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SIMULATOR: "0",
      DEMO_SAMPLE_DAYS: "2",
      LOG_REQUESTS: "0",
      SERVE_STATIC: "0",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    stop: () => {
      server.kill("SIGTERM");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(BADGE_TABLE_HEAD);
  for (const [label, env] of [
    ["answer cache 1 s", {}],
    ["no answer cache", { ANSWER_CACHE_MS: "0" }],
  ] as const) {
    const p = await portal(4494, env);
    try {
      await badgesBench(p.base, label);
    } finally {
      p.stop();
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
