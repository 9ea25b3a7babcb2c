// The report chart data call at the issue's scale: a year of minute samples for 4 channels
// (2.1M samples) seeded into the bench's own temporary databases (PGlite, and PostgreSQL when
// one answers), rolled up as the demo history does, then GET .../public/report/data/{hash}
// through the app for a day, a month and a year (median of 9), beside the naive date_bin
// scan of raw samples the issue measured.
import type { ReportDataWire } from "../../src/api/reports.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import { buildApp } from "../../server/app.ts";
import { parseConfig } from "../../server/config.ts";
import { openDatabase, rows, type Db } from "../../server/db/client.ts";
import { rollUpRange } from "../../server/data/rollups.ts";
import { median } from "./timing.ts";
import { openPostgresBench, PG_URL } from "./postgres.ts";

const DAY = 86_400;
const END = Date.parse("2026-01-01T00:00:00Z") / 1000;
const START = END - 365 * DAY;
const HASH = "bench-report-hash-0123456789";
const WINDOWS = [
  ["a day", DAY],
  ["a month (30 days)", 30 * DAY],
  ["a year", 365 * DAY],
] as const;

/** One device with four channels, a year of minute samples each, a report over them, rollups. */
async function seed(db: Db): Promise<number[]> {
  const one = async <T>(q: ReturnType<typeof sql>) => (await rows<T>(db, q))[0]!;
  const sub = await one<{ id: number }>(sql`insert into subscriptions (name, tier_name, limits, features)
    values ('Bench', 'Bench', '{}', '{}') returning id`);
  const device = await one<{ id: number }>(sql`insert into devices (subscription_id, name, type, device_type,
    mac_address, serialnumber, ingest_key_hash, push_interval)
    values (${sub.id}, 'Bench Station', 'RA12', 'RA12', 'BE:NC:H0:00:00:01', 'SN-BENCH', 'x', 60) returning id`);
  const sensor = await one<{ id: number }>(sql`insert into sensors (device_id, mac_address, kind, label)
    values (${device.id}, 'W1B001', 'wireless', 'Cold Room') returning id`);
  const group = await one<{
    id: number;
  }>(sql`insert into channel_groups (sensor_id, channel_key, group_type, group_index)
    values (${sensor.id}, 'BENCH_W1B001_1200_0', 1200, 0) returning id`);
  const report = await one<{
    id: number;
  }>(sql`insert into reports (subscription_id, name, public_hash, time_interval,
    start_date, end_date) values (${sub.id}, 'Bench', ${HASH}, 0, to_timestamp(${START}), to_timestamp(${END})) returning id`);
  const ids: number[] = [];
  for (const [i, kind] of ["temperature", "humidity", "dew_point", "heat_index"].entries()) {
    const ch = await one<{
      id: number;
    }>(sql`insert into channels (channel_group_id, channel_key, channel_type, kind, name)
      values (${group.id}, ${`BENCH_W1B001_1200_0_${i + 1}`}, ${i + 1}, ${kind}, ${kind}) returning id`);
    ids.push(ch.id);
    await db.execute(
      sql`insert into report_channels (report_id, channel_id, color) values (${report.id}, ${ch.id}, '#123456')`,
    );
    for (let from = START; from < END; from += 30 * DAY)
      await db.execute(sql`insert into samples (channel_id, time, value)
        select ${ch.id}, t, round((20 + 5 * sin(extract(epoch from t) / 3600) + ${i})::numeric, 2)::float8
        from generate_series(to_timestamp(${from}), to_timestamp(${Math.min(END, from + 30 * DAY) - 60}), interval '1 minute') t`);
  }
  // Ten one-minute spikes into a threshold range, so excursions are part of the work.
  for (let k = 1; k <= 10; k++)
    await db.execute(sql`update samples set value = 31 where channel_id = ${ids[0]!}
      and time = to_timestamp(${START + k * 33 * DAY + 17 * 60})`);
  await db.execute(sql`insert into threshold_ranges (subscription_id, name, channel_id, min_value, color)
    values (${sub.id}, 'Too warm', ${ids[0]!}, 30, '#ffcdd2')`);
  await db.execute(sql`insert into report_thresholds (report_id, threshold_range_id)
    select ${report.id}, id from threshold_ranges where subscription_id = ${sub.id}`);
  for (let from = START; from < END; from += 30 * DAY)
    await rollUpRange(db, ids, from, Math.min(END, from + 30 * DAY));
  await db.execute(sql`analyze`);
  return ids;
}

/** Milliseconds of each window through the app (median of 9), and the naive scan of a year. */
async function measure(db: Db, ids: readonly number[]) {
  const app = buildApp({
    db,
    config: parseConfig({ DEMO: "0", SIMULATOR: "0" }),
    now: () => new Date(END * 1000),
  });
  const out: Record<string, number> = {};
  for (const [name, seconds] of WINDOWS) {
    const url = `http://localhost/api/v1/device-data/public/report/data/${HASH}?start=${END - seconds}&end=${END}`;
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      const started = performance.now();
      const res = await app.request(url);
      const body = (await res.json()) as { data: ReportDataWire };
      times.push(performance.now() - started);
      if (i === 0) out[`${name} points`] = Math.max(...body.data.series.map((s) => s.values.length));
    }
    out[name] = median(times);
  }
  const naive: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    for (const id of ids)
      await rows(
        db,
        sql`select date_bin('6 hours', time, timestamptz '2000-01-01') as b, min(value), avg(value), max(value)
            from samples where channel_id = ${id} and time >= to_timestamp(${START}) and time < to_timestamp(${END}) group by b`,
      );
    naive.push(performance.now() - started);
  }
  out["naive"] = median(naive);
  return out;
}

/** Seeds each engine, measures, prints the table (budgets: a year ≤ 150 ms PGlite, ≤ 60 ms PostgreSQL). */
export async function chartDataBench() {
  const dir = mkdtempSync(join(tmpdir(), "portal-chart-bench-"));
  const results: { engine: string; r: Record<string, number> }[] = [];
  try {
    const lite = await openDatabase({ dataDir: dir });
    let started = performance.now();
    const ids = await seed(lite.db);
    console.log(
      `\nChart data: seeded and rolled up ${4 * 525_600} samples in PGlite in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    results.push({ engine: "PGlite", r: await measure(lite.db, ids) });
    await lite.close();
    const pg = await openPostgresBench("portal_chart_bench");
    if (pg) {
      started = performance.now();
      const pgIds = await seed(pg.db);
      console.log(
        `seeded and rolled up PostgreSQL in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
      results.push({ engine: "PostgreSQL", r: await measure(pg.db, pgIds) });
      await pg.drop();
    } else console.log(`(no PostgreSQL at ${PG_URL}: run \`pg_ctlcluster 15 main start\` for its column)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n| chart data call, 4 channels (median ms) | ${results.map((x) => x.engine).join(" | ")} |`);
  console.log(`|---|${results.map(() => "---:").join("|")}|`);
  for (const [name] of WINDOWS) {
    const cells = results.map((x) => `${x.r[name]!.toFixed(1)} (${x.r[`${name} points`]} points)`);
    console.log(`| ${name} | ${cells.join(" | ")} |`);
  }
  console.log(
    `| naive date_bin scan of a year's raw samples | ${results.map((x) => x.r["naive"]!.toFixed(1)).join(" | ")} |`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await chartDataBench();
