import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { ROLLUP_LEVELS } from "../../src/domain/downsample.ts";
import { foldChannels } from "./rollupFold.ts";
import { COLUMNS, OF_FINER, OF_SAMPLES, SUMMARY, UPSERT, width } from "./rollupSql.ts";

const FINEST = ROLLUP_LEVELS[0];
const COARSEST = ROLLUP_LEVELS[ROLLUP_LEVELS.length - 1]!;

/** A channel's buckets to recompute (epoch seconds), and how far its device's folding stands. */
type Touched = ReadonlyMap<number, { buckets: ReadonlySet<number>; horizon: number }>;

/** Channel, bucket start and horizon triples as three SQL arrays, for unnest. */
function triples(touched: Touched): { ids: SQL; starts: SQL; horizons: SQL } {
  const ids: number[] = [];
  const starts: string[] = [];
  const horizons: string[] = [];
  for (const [id, { buckets, horizon }] of touched)
    for (const s of buckets) {
      ids.push(id);
      starts.push(new Date(s * 1000).toISOString());
      horizons.push(Number.isFinite(horizon) ? new Date(horizon * 1000).toISOString() : "infinity");
    }
  return {
    ids: sql`${`{${ids.join(",")}}`}::int[]`,
    starts: sql`${`{${starts.join(",")}}`}::timestamptz[]`,
    horizons: sql`${`{${horizons.join(",")}}`}::timestamptz[]`,
  };
}

/** The buckets of `level` holding the given buckets of a finer level (or times). */
function parents(touched: Touched, level: number): Touched {
  const out = new Map<number, { buckets: Set<number>; horizon: number }>();
  for (const [id, { buckets, horizon }] of touched)
    out.set(id, { buckets: new Set([...buckets].map((s) => Math.floor(s / level) * level)), horizon });
  return out;
}

/**
 * Recomputes the given buckets of `level`, each read on its own through the primary key
 * (a lateral lookup: a push touches a bucket or two of channels with a year of samples). The
 * finest level counts the samples before the channel's horizon only (rollupFold.ts); the levels
 * above it then hold no more either.
 */
async function recomputeBuckets(db: Db, touched: Touched, level: number, finer: number | null) {
  if (!touched.size) return;
  const { ids, starts, horizons } = triples(touched);
  const inside = (col: SQL) => sql`${col} >= t.b and ${col} < t.b + ${width(level)}`;
  const summary =
    finer === null
      ? sql`select ${OF_SAMPLES} from samples s
            where s.channel_id = t.c and ${inside(sql.raw("s.time"))} and s.time < t.h`
      : sql`select ${OF_FINER} from sample_rollups r
            where r.channel_id = t.c and r.level = ${finer} and ${inside(sql.raw("r.bucket"))}`;
  await db.execute(sql`
    insert into sample_rollups ${COLUMNS}
    select t.c, ${level}, t.b, ${SUMMARY}
    from unnest(${ids}, ${starts}, ${horizons}) as t(c, b, h) cross join lateral (${summary}) as a
    where a.n > 0
    ${UPSERT}`);
}

/**
 * Brings every level's buckets that hold the given samples up to date, recomputed from the
 * samples (then level from level), so an overwritten reading leaves them exact. For samples
 * older than their device's horizon (`horizon`, epoch seconds; the fold job takes the rest),
 * by a writer holding the channels' devices' rows (a batch of pushes, data/rollupBatch.ts),
 * which rollUpRange and the fold take too.
 */
export async function recomputeSamples(
  db: Db,
  written: readonly { channelId: number; time: Date; horizon: number }[],
) {
  if (!written.length) return;
  const times = new Map<number, { buckets: Set<number>; horizon: number }>();
  for (const w of written) {
    const entry = times.get(w.channelId) ?? { buckets: new Set<number>(), horizon: w.horizon };
    entry.buckets.add(Math.floor(w.time.getTime() / 1000));
    times.set(w.channelId, entry);
  }
  await recompute(db, parents(times, FINEST));
}

/** Recomputes the given finest-level buckets and, level by level, the buckets above them. */
async function recompute(db: Db, finest: Touched) {
  await recomputeBuckets(db, finest, FINEST, null);
  let touched = finest;
  for (let i = 1; i < ROLLUP_LEVELS.length; i++) {
    touched = parents(touched, ROLLUP_LEVELS[i]!);
    await recomputeBuckets(db, touched, ROLLUP_LEVELS[i]!, ROLLUP_LEVELS[i - 1]!);
  }
}

/**
 * Rebuilds every level over [from, to) (epoch seconds, widened to whole coarsest buckets) for
 * the channels: the rollups of samples written in bulk (the demo history, or samples stored
 * before rollups existed). Buckets left without samples are removed. The levels are folded
 * from the samples up to `to` at least (rollupFold.ts), which becomes the devices' horizon if
 * it was behind. Run it in the transaction that wrote the samples.
 */
export async function rollUpRange(db: Db, channelIds: readonly number[], from: number, to: number) {
  if (!channelIds.length || to <= from) return;
  // A batch of pushes and the fold job write a device's rollups under its row lock: a rebuild
  // takes it too, in id order.
  // Every channel of the devices: the horizon is the device's, so when it moves, the channels
  // outside the range are folded up to it too.
  const owners = await rows<{ c: number; d: number; h: number }>(
    db,
    sql`select c.id as c, d.id as d, date_part('epoch', d.rolled_until)::float8 as h from devices d
      join sensors s on s.device_id = d.id join channel_groups g on g.sensor_id = s.id
      join channels c on c.channel_group_id = g.id
      where d.id in (select s.device_id from sensors s join channel_groups g on g.sensor_id = s.id
        join channels c on c.channel_group_id = g.id where c.id = any(${`{${channelIds.join(",")}}`}::int[]))
      order by d.id for update of d`,
  );
  const inRange = new Set(channelIds);
  const start = Math.floor(from / COARSEST) * COARSEST;
  const end = Math.ceil(to / COARSEST) * COARSEST;
  const ids = sql.join(
    channelIds.map((id) => sql`${id}`),
    sql`, `,
  );
  // Level by level in the key's order, so the delete reads a range of the primary key.
  for (const level of ROLLUP_LEVELS)
    await db.execute(sql`delete from sample_rollups where channel_id in (${ids}) and level = ${level}
      and bucket >= to_timestamp(${start}) and bucket < to_timestamp(${end})`);
  await foldChannels(
    db,
    // The range's buckets, and any between the horizon and the range: the horizon moves to `to`
    // when it was behind it, and each bucket counts the samples before it. The devices' other
    // channels: only what the horizon's move takes in.
    owners.map((o) =>
      inRange.has(o.c)
        ? { channelId: o.c, from: Math.min(o.h, start), until: end, cutoff: Math.max(o.h, to) }
        : { channelId: o.c, from: o.h, until: to, cutoff: to },
    ),
  );
  const devices = [...new Set(owners.map((o) => o.d))];
  await db.execute(sql`update devices set rolled_until = greatest(rolled_until, to_timestamp(${to}))
    where id = any(${`{${devices.join(",")}}`}::int[])`);
}

/** The oldest sample of a channel and the oldest bucket of its finest rollup level (epoch seconds). */
export async function rollupCoverage(db: Db, channelId: number) {
  const [row] = await rows<{ sample: number | null; bucket: number | null }>(
    db,
    sql`select
      (select date_part('epoch', min(time)) from samples where channel_id = ${channelId}) as sample,
      (select date_part('epoch', min(bucket)) from sample_rollups
        where channel_id = ${channelId} and level = ${FINEST}) as bucket`,
  );
  return { oldestSample: row?.sample ?? null, oldestBucket: row?.bucket ?? null };
}
