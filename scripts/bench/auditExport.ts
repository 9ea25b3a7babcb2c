// The audit trail's CSV export (issue 37: "100,000 rows in ≤ 2 s, streamed"): a real portal
// process on its own PGlite (and on PostgreSQL when one answers at PROOF_DATABASE_URL) with
// 100,000 rows in the demo subscription's chain, an Administrator signed in through the form,
// and `GET /api/v1/audit/export.csv` read to its end: time to the first byte and to the last,
// and the rows that came. Run alone with `node scripts/bench/auditExport.ts`.
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import { rows } from "../../server/db/client.ts";
import { DEMO_PASSWORD } from "../../server/seed/demo.ts";
import { ServerProcess } from "../proof/server.ts";
import { pgliteTarget, postgresTarget, type Target } from "../proof/target.ts";
import { median } from "./timing.ts";

const ROWS = 100_000;
const PORT = 4596;
const GOAL_MS = 2000;

/** ROWS rows of renames, sensor changes and sign-ins in the chain of admin's subscription. */
async function fill(target: Target) {
  const { db, close } = await target.open();
  try {
    const [who] = await rows<{ user_id: number; subscription_id: number; device_id: number }>(
      db,
      sql`select u.id as user_id, u.active_subscription_id as subscription_id,
            (select min(id) from devices d where d.subscription_id = u.active_subscription_id) as device_id
          from users u where u.email = 'admin@example.com'`,
    );
    const { user_id: user, subscription_id: sub, device_id: device } = who!;
    // Seqs far above the demo's own rows; the head moved past them so the sign-in appends after.
    await db.execute(sql`insert into audit_log (subscription_id, seq, at, actor_kind, actor_id, actor_label,
        action, entity_type, entity_id, device_id, old, new, prev_hash, hash)
      select ${sub}, 1000000 + g, now() - make_interval(secs => ${ROWS} - g), 'user', ${user}, 'admin@example.com',
        (array['device.rename', 'sensor.update', 'session.signin'])[g % 3 + 1], 3, ${String(device)}, ${device},
        case when g % 3 = 2 then null else jsonb_build_object('name', 'Freezer ' || g, 'offset', g % 7) end,
        case when g % 3 = 2 then null else jsonb_build_object('name', 'Freezer ' || (g + 1), 'offset', g % 5) end,
        repeat('0', 64), repeat('0', 64)
      from generate_series(1, ${ROWS}) g`);
    await db.execute(sql`insert into audit_heads (subscription_id, seq, hash) values (${sub}, ${1_000_000 + ROWS}, ${"0".repeat(64)})
      on conflict (subscription_id) do update set seq = excluded.seq, hash = excluded.hash`);
  } finally {
    await close();
  }
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/gateway/submit`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ emailAddress: "admin@example.com", password: DEMO_PASSWORD }).toString(),
    redirect: "manual",
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie) throw new Error(`sign-in answered ${res.status} without a session`);
  return cookie;
}

/** One export read to its end: ms to the first byte and to the last, and the data rows. */
async function exportOnce(base: string, cookie: string) {
  const began = performance.now();
  const res = await fetch(`${base}/api/v1/audit/export.csv?timezone=Europe%2FBerlin`, {
    headers: { cookie },
  });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  const reader = res.body!.getReader();
  let first = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!first) first = performance.now() - began;
    for (const byte of value) if (byte === 10) lines++;
  }
  return { firstMs: first, totalMs: performance.now() - began, rows: lines - 1 };
}

async function onTarget(target: Target, runs: number) {
  const dir = mkdtempSync(join(tmpdir(), "bench-audit-"));
  const server = new ServerProcess(PORT, target.env, join(dir, "server.log"));
  try {
    await server.start();
    await server.stop();
    await fill(target);
    await server.start();
    const cookie = await signIn(server.url);
    await exportOnce(server.url, cookie); // the first read compiles the path: not counted
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await exportOnce(server.url, cookie));
    await server.stop();
    return {
      engine: target.name,
      rows: results[0]!.rows,
      firstMs: median(results.map((r) => r.firstMs)),
      totalMs: median(results.map((r) => r.totalMs)),
    };
  } finally {
    await server.stop().catch(() => {});
    server.close();
    await target.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function auditExportBench(runs = 3) {
  const work = mkdtempSync(join(tmpdir(), "bench-audit-db-"));
  const load = loadavg()[0]!;
  const results = [await onTarget(pgliteTarget(work), runs)];
  const pg = await postgresTarget();
  if (pg) results.push(await onTarget(pg, runs));
  rmSync(work, { recursive: true, force: true });
  console.log(
    `\n| audit CSV export, ${ROWS.toLocaleString("en-US")} rows (load ${load.toFixed(1)} on ${availableParallelism()} cores, median of ${runs}) | rows | first byte | whole file | goal ${GOAL_MS} ms |\n|---|---:|---:|---:|---|`,
  );
  for (const r of results)
    console.log(
      `| ${r.engine} | ${r.rows.toLocaleString("en-US")} | ${r.firstMs.toFixed(0)} ms | ${r.totalMs.toFixed(0)} ms | ${r.totalMs <= GOAL_MS ? "met" : "missed"} |`,
    );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await auditExportBench();
