import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { rows } from "../../server/db/client.ts";
import { foldRollups, foldTarget } from "../../server/data/rollupFold.ts";
import { rollUpRange } from "../../server/data/rollups.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { fillHistory } from "../../server/seed/history.ts";
import { emptyDatabase, seedDemo } from "../../server/seed/index.ts";
import type { ReportDataWire } from "../../src/api/reports.ts";
import { unpackSeries } from "../../src/domain/chartPoints.ts";
import { openTestDatabase, TEST_NOW, testConfig } from "./helpers.ts";
import { useIngestApp } from "./ingestKit.ts";
import { readsVersusSamples, rollupsVersusSamples } from "./rollupKit.ts";

const MAC = "00:1A:2B:3C:4D:01";
const COLD_TEMP = `${MAC}_W1A001_1200_0_1`;
const COLD_HUM = `${MAC}_W1A001_1200_0_2`;
const INCUBATOR = `${MAC}_W1A002_1200_0_1`;
const NOW = TEST_NOW.getTime() / 1000;
const DAY = 86_400;
const YEAR_HASH = "year-report-hash-0123456789";

describe("chart rollups", () => {
  // Eight pushes of one device at once: the per-key limit in front is attack32Push's subject.
  const { ctx, push: pushBody } = useIngestApp({ unlimited: true });
  const db = () => ctx.database.db;
  const push = (readings: { channelKey: string; value: number; time?: number }[]) =>
    pushBody({ macAddress: MAC, readings });

  it("stay equal to a recomputation from the raw samples after pushes through the real endpoint", async () => {
    // The seed's one sample per channel has no rollup until a start fills them in.
    await db().execute(sql`delete from samples`);
    const at = (minutesAgo: number, second = 0) => NOW - minutesAgo * 60 + second;
    const results = [
      await push([
        { channelKey: COLD_TEMP, value: 4.5, time: at(30) },
        { channelKey: COLD_TEMP, value: 5.5, time: at(29) },
        { channelKey: COLD_HUM, value: 70, time: at(29) },
      ]),
      // A later reading for the same second replaces the first: the bucket's maximum falls.
      await push([{ channelKey: COLD_TEMP, value: 3.25, time: at(29) }]),
      // Late readings, six days back, land in old buckets of every level.
      await push([
        { channelKey: COLD_TEMP, value: -2, time: at(6 * 1440) },
        { channelKey: COLD_TEMP, value: 12, time: at(6 * 1440 - 200) },
      ]),
      // A reading without a time means now.
      await push([{ channelKey: INCUBATOR, value: 37.2 }]),
    ];
    // Parallel pushes of the same channels and buckets.
    results.push(
      ...(await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          push([
            { channelKey: COLD_TEMP, value: 2 + i, time: at(10, i) },
            { channelKey: INCUBATOR, value: 36 + i / 10, time: at(11, i) },
          ]),
        ),
      )),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const { stored, recomputed } = await rollupsVersusSamples(db());
    expect(stored.length).toBeGreaterThan(20);
    expect(stored).toEqual(recomputed);
  });

  it("are read exactly before the fold job runs, and stored exactly after it, with the horizon mid-bucket", async () => {
    await db().execute(sql`delete from samples`);
    await db().execute(sql`delete from sample_rollups`);
    // The rollups are folded up to two days back, at a moment inside every level's bucket.
    const horizon = NOW - 2 * DAY + 137;
    await db().execute(sql`update devices set rolled_until = to_timestamp(${horizon})`);
    const at = (secondsAgo: number) => NOW - secondsAgo;
    const sent = [
      // Today's readings: no rollup until the fold.
      [
        { channelKey: COLD_TEMP, value: 4.5, time: at(1800) },
        { channelKey: COLD_HUM, value: 70, time: at(1700) },
      ],
      [{ channelKey: COLD_TEMP, value: 9.5, time: at(1750) }],
      // The same second again: a repeat, and still no rollup.
      [{ channelKey: COLD_TEMP, value: 1.25, time: at(1750) }],
      // Just before the horizon (late: every level at once) and just after it, in one bucket.
      [
        { channelKey: COLD_TEMP, value: -1, time: horizon - 30 },
        { channelKey: COLD_TEMP, value: 15, time: horizon + 30 },
      ],
      // Well before it: every level at once, then repeated.
      [{ channelKey: COLD_TEMP, value: -2, time: at(6 * DAY) }],
      [{ channelKey: COLD_TEMP, value: 22, time: at(6 * DAY) }],
      // After it, in the horizon's three-hour bucket.
      [
        { channelKey: COLD_TEMP, value: 3, time: horizon + 2400 },
        { channelKey: INCUBATOR, value: 37, time: horizon + 2400 },
      ],
    ];
    for (const readings of sent) expect((await push(readings)).status).toBe(200);
    const coarse = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from sample_rollups where bucket >= to_timestamp(${NOW - DAY})`,
    );
    expect(coarse[0]!.n).toBe(0);
    const before = await readsVersusSamples(db());
    expect(before.read).toEqual(before.expected);
    expect(before.read.length).toBeGreaterThan(20);
    expect((await rollupsVersusSamples(db())).stored).not.toEqual(
      (await rollupsVersusSamples(db())).recomputed,
    );

    const later = new Date((NOW + DAY) * 1000);
    expect(await foldRollups(db(), later)).toBeGreaterThan(0);
    const { stored, recomputed } = await rollupsVersusSamples(db());
    expect(stored).toEqual(recomputed);
    const horizons = await rows<{ id: number; h: number }>(
      db(),
      sql`select id, date_part('epoch', rolled_until)::float8 as h from devices order by id`,
    );
    expect(horizons).toEqual(horizons.map(({ id }) => ({ id, h: foldTarget(later, id) })));
    expect(new Set(horizons.map((r) => r.h)).size).toBeGreaterThan(1);
    // A second run finds nothing to do.
    expect(await foldRollups(db(), later)).toBe(0);
    const after = await readsVersusSamples(db());
    expect(after.read).toEqual(before.read);
  });

  it("are folded once per device when two instances run the job at once", async () => {
    await db().execute(sql`delete from samples`);
    await db().execute(sql`delete from sample_rollups`);
    await db().execute(sql`update devices set rolled_until = to_timestamp(${NOW - DAY})`);
    for (let k = 0; k < 6; k++)
      expect((await push([{ channelKey: COLD_TEMP, value: k, time: NOW - 3600 * k - 60 }])).status).toBe(200);
    const [{ n: behind } = { n: 0 }] = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from devices`,
    );
    const later = new Date((NOW + DAY) * 1000);
    const [a, b] = await Promise.all([foldRollups(db(), later), foldRollups(db(), later)]);
    expect(a + b).toBe(behind);
    const { stored, recomputed } = await rollupsVersusSamples(db());
    expect(stored).toEqual(recomputed);
    expect(stored.length).toBeGreaterThanOrEqual(6 * 3);
  });

  it("of the demo history equal a recomputation, with the seed's recent days and events included", async () => {
    await emptyDatabase(db());
    await seedDemo(db(), { now: TEST_NOW, sampleDays: 3 });
    await fillHistory(db(), { now: TEST_NOW, sampleDays: 3 });
    const { stored, recomputed } = await rollupsVersusSamples(db());
    expect(stored).toEqual(recomputed);
    // A second start finds nothing left to roll up and changes nothing.
    await fillHistory(db(), { now: TEST_NOW, sampleDays: 3 });
    expect((await rollupsVersusSamples(db())).stored).toEqual(stored);
  });
});

describe("a year of chart data", () => {
  // One database for these read-only tests: the seed, then a fixed report over the last year
  // of one channel with ten-minute samples, one spike and one silence.
  const ctx = {} as {
    database: Awaited<ReturnType<typeof openTestDatabase>>;
    app: ReturnType<typeof buildApp>;
  };
  const db = () => ctx.database.db;
  const start = NOW - 365 * DAY;
  const spikeAt = NOW - 200 * DAY + 7 * 60;
  const silence = { from: NOW - 100 * DAY, to: NOW - 100 * DAY + 12 * 3600 };

  beforeAll(async () => {
    ctx.database = await openTestDatabase();
    ctx.app = buildApp({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW });
    await seedDemo(db(), { now: TEST_NOW, sampleDays: 0 });
    const [ch] = await rows<{ id: number }>(
      db(),
      sql`select id from channels where channel_key = ${COLD_TEMP}`,
    );
    const id = ch!.id;
    await db().execute(sql`delete from samples where channel_id = ${id}`);
    await db().execute(sql`insert into samples (channel_id, time, value)
      select ${id}, t, round((4 + sin(extract(epoch from t) / 7200))::numeric, 2)::float8
      from generate_series(to_timestamp(${start}), to_timestamp(${NOW}), interval '10 minutes') t
      where t < to_timestamp(${silence.from}) or t >= to_timestamp(${silence.to})`);
    await db().execute(
      sql`insert into samples (channel_id, time, value) values (${id}, to_timestamp(${spikeAt}), 95)`,
    );
    await rollUpRange(db(), [id], start, NOW + 1);
    const fixed = sql`(select id from reports where public_hash = ${DEMO.fixedReportHash})`;
    await db().execute(sql`delete from report_channels where report_id = ${fixed} and channel_id <> ${id}`);
    await db().execute(sql`update reports set public_hash = ${YEAR_HASH}, start_date = to_timestamp(${start}),
      end_date = to_timestamp(${NOW}) where id = ${fixed}`);
    await db().execute(sql`update threshold_ranges set min_value = 50 where name = 'Cold room too warm'`);
  });
  afterAll(async () => {
    await ctx.database?.drop();
  });
  const chart = async (query = "") => {
    const res = await ctx.app.request(
      `http://localhost/api/v1/device-data/public/report/data/${YEAR_HASH}${query}`,
    );
    expect(res.status).toBe(200);
    return unpackSeries(((await res.json()) as { data: ReportDataWire }).data.series[0]!);
  };

  it("keeps a one-minute spike in a year, within 3000 points read from three-hour buckets", async () => {
    const year = await chart();
    expect(year.bucketSeconds).toBe(21_600);
    expect(year.points.length).toBeLessThanOrEqual(3000);
    expect(year.points).toContainEqual([spikeAt, 95]);
    expect(year.stats).toMatchObject({ max: 95, count: 365 * 144 + 1 - 72 + 1 });
  });

  it("draws the same year while its last days wait for the fold job, and after it", async () => {
    const whole = await chart();
    const month = await chart(`?start=${NOW - 30 * DAY - 1234}&end=${NOW - 77}`);
    const week = await chart(`?start=${NOW - 7 * DAY}&end=${NOW}`);
    const quarter = await chart(`?start=${NOW - 120 * DAY}&end=${NOW}`);
    const horizon = Math.floor((NOW - 3 * DAY) / 10_800) * 10_800;
    await db().execute(sql`delete from sample_rollups where bucket >= to_timestamp(${horizon})`);
    await db().execute(sql`update devices set rolled_until = to_timestamp(${horizon})`);
    expect(await chart()).toEqual(whole);
    expect(await chart(`?start=${NOW - 30 * DAY - 1234}&end=${NOW - 77}`)).toEqual(month);
    expect(await chart(`?start=${NOW - 7 * DAY}&end=${NOW}`)).toEqual(week);
    expect(await chart(`?start=${NOW - 120 * DAY}&end=${NOW}`)).toEqual(quarter);
    expect([whole, quarter, month, week].map((c) => c.bucketSeconds)).toEqual([21_600, 7200, 1800, 600]);
    await foldRollups(db(), new Date((NOW + DAY) * 1000));
    expect(await chart()).toEqual(whole);
  });

  it("shows the twelve silent hours as a gap in the year", async () => {
    const gaps = (await chart()).points.filter((p) => p[1] === null);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]![0]).toBeGreaterThan(silence.from);
    expect(gaps[0]![0]).toBeLessThan(silence.to);
  });

  it("times the spike's excursion to its five-minute bucket and keeps its worst value exact", async () => {
    const year = await chart();
    expect(year.excursionPrecision).toBe(300);
    expect(year.excursions).toEqual([
      expect.objectContaining({
        start: spikeAt - (spikeAt % 300),
        duration: 300,
        worst: 95,
        worstAt: spikeAt,
      }),
    ]);
    expect(year.secondsOutside).toBe(300);
  });

  it("reads a month at fifteen minutes and an unaligned window's statistics exactly", async () => {
    const from = NOW - 30 * DAY - 1234;
    const month = await chart(`?start=${from}&end=${NOW - 77}`);
    expect(month.bucketSeconds).toBe(1800);
    const [exact] = await rows<{ min: number; max: number; n: number; avg: number }>(
      db(),
      sql`select min(value) as min, max(value) as max, count(*)::int as n, avg(value) as avg from samples
          where channel_id = ${month.channelId} and time >= to_timestamp(${from}) and time <= to_timestamp(${NOW - 77})`,
    );
    expect(month.stats).toMatchObject({ min: exact!.min, max: exact!.max, count: exact!.n });
    expect(month.stats!.avg).toBeCloseTo(exact!.avg, 3);
  });
});
