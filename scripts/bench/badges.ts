// The status badges' latency under load (issue 36): autocannon, 50 connections for 10 s on the
// report's and the device's badge of a running portal. autocannon reports no p95; p97.5 is
// printed as its upper bound (the issue asks p95 ≤ 50 ms). Run alone with
// `node scripts/bench/badges.ts`: it serves the app twice on an embedded database, with the
// answer microcache as configured (1 s) and without it (every badge reads the database).
import { serve } from "@hono/node-server";
import autocannon from "autocannon";
import type { Server } from "node:http";
import { pathToFileURL } from "node:url";
import { buildApp } from "../../server/app.ts";
import { parseConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/client.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { seedDemo } from "../../server/seed/index.ts";

const BADGES = [
  ["report badge", `/public/report/${DEMO.reportHash}/badge.svg`],
  ["device badge", `/public/device/${DEMO.raDeviceHash}/badge.svg`],
] as const;

/** Prints one row per badge for the portal at `base`; `label` says how it was set up. */
export async function badgesBench(base: string, label = "answer cache 1 s", workers = 0) {
  for (const [name, path] of BADGES) {
    const r = await autocannon({
      url: base + path,
      connections: 50,
      duration: 10,
      ...(workers ? { workers } : {}),
    });
    const l = r.latency as unknown as Record<string, number>;
    console.log(
      `| ${name}, ${label} | ${Math.round(r.requests.average)} | ${l["p50"]} | ${l["p90"]} | ${l["p97_5"]} | ${l["p99"]} | ${r.non2xx + r.errors} |`,
    );
  }
}

export const BADGE_TABLE_HEAD =
  "\n| badge | req/s | p50 (ms) | p90 (ms) | p97.5 ≥ p95 (ms) | p99 (ms) | errors |\n|---|---:|---:|---:|---:|---:|---:|";

/**
 * The portal's app on the embedded database with the demo (no history, no simulator), served by
 * @hono/node-server in this process; the load generator runs in two worker threads, so it does
 * not share the server's event loop.
 */
async function portal(port: number, env: Record<string, string>) {
  const database = await openDatabase({});
  await seedDemo(database.db, { now: new Date(), sampleDays: 0 });
  const config = parseConfig({ DEMO: "1", SIMULATOR: "0", SERVE_STATIC: "0", LOG_REQUESTS: "0", ...env });
  const app = buildApp({ db: database.db, config });
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => resolve(s as Server));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    stop: async () => {
      server.close();
      await database.close();
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
      await badgesBench(p.base, label, 2);
    } finally {
      await p.stop();
    }
  }
  process.exit(0);
}
