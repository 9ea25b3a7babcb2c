// The live viewers' table of `npm run load`, and what in it fails the run.
import type { LiveViewerOptions, LiveViewerRun } from "./liveViewers.ts";

/** The live-viewer table, in Markdown. */
export function liveViewerTable(runs: LiveViewerRun[], o: LiveViewerOptions): string {
  const lines = [
    `\n### Live viewers: sockets watching load devices, ${o.pushesPerSecond} pushes/s for ${o.seconds} s (delay from the push's answer to the state on each watching socket)\n`,
    "| engine | instances | sockets watching | devices | pushes (failed) | deliveries | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) | missed | generator CPU | instances' CPU | p95 ≤ 2 s |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
  ];
  for (const r of runs)
    lines.push(
      `| ${r.engine} | ${r.instances} | ${r.watching} of ${r.viewers} | ${r.devices} | ${r.pushes} (${r.pushesFailed}) | ${r.delivered} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.max.toFixed(0)} | ${r.missed} | ${(100 * r.generatorCpu).toFixed(0)} % | ${r.serverCpu.map((c) => `${(100 * c).toFixed(0)} %`).join(", ")} | ${r.p95 <= 2000 && r.missed === 0 && r.watching === r.viewers ? "yes" : "no"} |`,
    );
  return lines.join("\n");
}

/**
 * What fails the run: a viewer that could not watch, a push without an answer or answered a
 * 5xx other than 503 with Retry-After. A missed delay goal is printed, not failed (tables.ts).
 */
export function liveViewerFailures(runs: LiveViewerRun[]): string[] {
  return runs.flatMap((r) => [
    ...(r.watching < r.viewers
      ? [`${r.engine} live viewers: ${r.viewers - r.watching} sockets never watched`]
      : []),
    ...(r.pushesUnexpected
      ? [
          `${r.engine} live viewers: ${r.pushesUnexpected} pushes without an answer or with a 5xx other than 503`,
        ]
      : []),
  ]);
}
