import { sql } from "drizzle-orm";
import { rows, type Db } from "../../server/db/client.ts";
import { readRollups, readRollupsIn } from "../../server/data/rollupReads.ts";

// What the chart rollup tests compare (chartData.test.ts, attackFold.test.ts): the rollups as
// stored and as read, each beside a recomputation from the raw samples.

/** The rollups as stored, and as recomputed from the raw samples, in one comparable shape. */
export async function rollupsVersusSamples(db: Db) {
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
export async function readsVersusSamples(db: Db) {
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
