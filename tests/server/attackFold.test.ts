import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows, type Db } from "../../server/db/client.ts";
import { foldRollups } from "../../server/data/rollupFold.ts";
import { readRollups, readRollupsIn, rollUpRange } from "../../server/data/rollups.ts";
import { fillHistory } from "../../server/seed/history.ts";
import { TEST_NOW } from "./helpers.ts";
import { useIngestApp } from "./ingestKit.ts";

const MAC = "00:1A:2B:3C:4D:01";
const COLD_TEMP = `${MAC}_W1A001_1200_0_1`;
const COLD_HUM = `${MAC}_W1A001_1200_0_2`;
const INCUBATOR = `${MAC}_W1A002_1200_0_1`;
const NOW = TEST_NOW.getTime() / 1000;
const DAY = 86_400;

/** The rollups as stored, and as recomputed from the raw samples, in one comparable shape. */
async function rollupsVersusSamples(db: Db) {
  const shape = (r: Record<string, unknown>) => JSON.stringify(r);
  const stored = await rows<Record<string, unknown>>(
    db,
    sql`select channel_id, level, bucket, min_value, max_value, round(sum_value::numeric, 4)::float8 as sum,
          sample_count as n, min_at, max_at, first_at, last_at
        from sample_rollups order by 1, 2, 3`,
  );
  const recomputed = await rows<Record<string, unknown>>(
    db,
    sql`select channel_id, l as level, date_bin(make_interval(secs => l), time, timestamptz 'epoch') as bucket,
          min(value) as min_value, max(value) as max_value, round(sum(value)::numeric, 4)::float8 as sum,
          count(*)::int as n, (array_agg(time order by value, time))[1] as min_at,
          (array_agg(time order by value desc, time))[1] as max_at, min(time) as first_at, max(time) as last_at
        from samples cross join (values (300), (900), (3600), (10800)) as levels(l)
        group by 1, 2, 3 order by 1, 2, 3`,
  );
  return { stored: stored.map(shape), recomputed: recomputed.map(shape) };
}

/**
 * What a chart reads of every level (readRollups: the coarser levels composed from what is folded
 * and the finest buckets after the horizon), and the same recomputed from the raw samples.
 */
async function readsVersusSamples(db: Db) {
  const { recomputed } = await rollupsVersusSamples(db);
  const expected = recomputed.map((r) => {
    const o = JSON.parse(r) as Record<string, string | number>;
    const sec = (k: string) => new Date(o[k] as string).getTime() / 1000;
    return JSON.stringify([
      o["channel_id"],
      o["level"],
      sec("bucket"),
      o["min_value"],
      o["max_value"],
      o["n"],
      sec("min_at"),
      sec("max_at"),
      sec("first_at"),
      sec("last_at"),
    ]);
  });
  const ids = [...new Set(recomputed.map((r) => (JSON.parse(r) as { channel_id: number }).channel_id))];
  const read: string[] = [];
  for (const level of [300, 900, 3600, 10800]) {
    const found = await readRollups(db, ids, level, 0, 4e9);
    for (const id of ids.sort((a, b) => a - b))
      for (const r of [...(found.get(id)?.rows ?? [])].sort((a, b) => a[0]! - b[0]!))
        read.push(JSON.stringify([id, level, r[0], r[1], r[2], null, r[3], r[4], r[5], r[6]]));
  }
  // The excursions' reader of the finest level, over spans, sees the same.
  const spans = new Map(ids.map((id) => [id, [[0, 4e9] as [number, number]]]));
  const within = await readRollupsIn(db, 300, spans);
  for (const id of ids.sort((a, b) => a - b))
    for (const r of [...(within.get(id)?.rows ?? [])].sort((a, b) => a[0]! - b[0]!))
      read.push(JSON.stringify([id, "in", r[0], r[1], r[2], null, r[3], r[4], r[5], r[6]]));
  const finest = expected.filter((e) => (JSON.parse(e) as unknown[])[1] === 300);
  return {
    read: read.sort(),
    expected: [...expected, ...finest.map((e) => e.replace(",300,", ',"in",'))]
      .map((e) => e.replace(/^(\[[^,]+,[^,]+,[^,]+,[^,]+,[^,]+,)[^,]+,/, "$1null,"))
      .sort(),
  };
}

describe("attack on the rollup fold", () => {
  const { ctx, push: pushBody } = useIngestApp({ unlimited: true });
  const db = () => ctx.database.db;
  const push = (readings: { channelKey: string; value: number; time?: number }[]) =>
    pushBody({ macAddress: MAC, readings });
  const channelId = async (key: string) =>
    (await rows<{ id: number }>(db(), sql`select id from channels where channel_key = ${key}`))[0]!.id;
  const reset = async (horizon: number) => {
    await db().execute(sql`delete from samples`);
    await db().execute(sql`delete from sample_rollups`);
    await db().execute(sql`update devices set rolled_until = to_timestamp(${horizon})`);
  };

  it("finding 1 (closed): rollUpRange of one channel moves the whole device's horizon past its other channels' unfolded samples", async () => {
    const horizon = NOW - 2 * 3600 + 137;
    await reset(horizon);
    // After the horizon: no rollup yet, read from the samples.
    expect((await push([{ channelKey: COLD_HUM, value: 70, time: NOW - 1800 }])).status).toBe(200);
    expect((await push([{ channelKey: COLD_TEMP, value: 4.5, time: NOW - 1200 }])).status).toBe(200);
    const before = await readsVersusSamples(db());
    expect(before.read).toEqual(before.expected);
    // A rebuild of COLD_TEMP alone (what the demo start's rollUpUncovered does for a channel
    // whose samples all lie after the horizon).
    await rollUpRange(db(), [await channelId(COLD_TEMP)], NOW - 3 * 3600, NOW);
    const after = await readsVersusSamples(db());
    expect(after.read).toEqual(after.expected);
  });

  it("finding 1b (closed): a demo start (fillHistory) loses a sibling channel's recent samples from the charts", async () => {
    const horizon = NOW - 2 * 3600 + 137;
    await reset(horizon);
    // COLD_HUM has a folded (late) reading, so it counts as covered; COLD_TEMP has none.
    expect((await push([{ channelKey: COLD_HUM, value: 60, time: NOW - 3 * 3600 }])).status).toBe(200);
    expect((await push([{ channelKey: COLD_HUM, value: 70, time: NOW - 1800 }])).status).toBe(200);
    expect((await push([{ channelKey: COLD_TEMP, value: 4.5, time: NOW - 1200 }])).status).toBe(200);
    const before = await readsVersusSamples(db());
    expect(before.read).toEqual(before.expected);
    await fillHistory(db(), { now: TEST_NOW, sampleDays: 0 });
    const after = await readsVersusSamples(db());
    expect(after.read).toEqual(after.expected);
  });

  it("holds: readings at, just before and just after the horizon, repeated, then folded", async () => {
    const horizon = NOW - DAY + 137;
    await reset(horizon);
    const sent = [
      [
        { channelKey: COLD_TEMP, value: 1, time: horizon },
        { channelKey: COLD_TEMP, value: 2, time: horizon - 1 },
        { channelKey: COLD_TEMP, value: 3, time: horizon + 1 },
      ],
      [
        { channelKey: COLD_TEMP, value: 9, time: horizon },
        { channelKey: COLD_TEMP, value: -9, time: horizon - 1 },
        { channelKey: COLD_TEMP, value: 0, time: horizon + 1 },
      ],
      [{ channelKey: INCUBATOR, value: 37, time: horizon }],
    ];
    for (const r of sent) expect((await push(r)).status).toBe(200);
    const before = await readsVersusSamples(db());
    expect(before.read).toEqual(before.expected);
    await foldRollups(db(), new Date((NOW + DAY) * 1000));
    const { stored, recomputed } = await rollupsVersusSamples(db());
    expect(stored).toEqual(recomputed);
    // repeats after the fold: now late
    expect((await push([{ channelKey: COLD_TEMP, value: 5, time: horizon }])).status).toBe(200);
    const again = await rollupsVersusSamples(db());
    expect(again.stored).toEqual(again.recomputed);
  });
  it("holds: pushes (late, current, repeats) racing folds whose horizon moves through them", async () => {
    await reset(NOW - DAY);
    const keys = [COLD_TEMP, COLD_HUM, INCUBATOR];
    const jobs: Promise<unknown>[] = [];
    for (let k = 0; k < 40; k++) {
      const t = NOW - 3000 - ((k * 7919) % 5000);
      jobs.push(
        (async () => {
          const res = await push([
            { channelKey: keys[k % 3]!, value: k, time: t },
            { channelKey: keys[(k + 1) % 3]!, value: -k, time: NOW - 2 * DAY + k * 60 },
          ]);
          expect(res.status).toBe(200);
        })(),
      );
      if (k % 5 === 0) jobs.push(foldRollups(db(), new Date((NOW + k * 60) * 1000)));
    }
    await Promise.all(jobs);
    const mid = await readsVersusSamples(db());
    expect(mid.read).toEqual(mid.expected);
    await foldRollups(db(), new Date((NOW + DAY) * 1000));
    const { stored, recomputed } = await rollupsVersusSamples(db());
    expect(stored).toEqual(recomputed);
  });
});
