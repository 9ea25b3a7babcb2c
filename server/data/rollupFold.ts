import { sql } from "drizzle-orm";
import { inTransaction, rows, type Db } from "../db/client.ts";
import { ROLLUP_LEVELS } from "../../src/domain/downsample.ts";
import { COLUMNS, epoch, OF_FINER, OF_SAMPLES, SUMMARY, UPSERT, width } from "./rollupSql.ts";
import { storeLatestValues } from "./channelValue.ts";
import { setImmediate as nextTurn } from "node:timers/promises";

/*
 * A push stores its readings and no rollup; every level (300, 900, 3600 and 10800 s) is folded
 * from the samples here, once a quarter of an hour per device, 10 to 25 minutes behind the clock
 * (its horizon, devices.rolled_until). The rule every writer keeps: a bucket of any level holds
 * exactly the samples inside it that are older than its device's horizon. Readers add the
 * samples from the horizon on (readRollups); a reading older than the horizon (pushed late) is
 * folded into every level at once, as all readings were before. docs/decisions.md, "Rollups
 * folded by a job".
 */

/** How far behind the clock the horizon stays: readings pushed up to this late still go the short way. */
export const FOLD_GRACE_SECONDS = 600;
/**
 * The horizon moves in steps of this many seconds: a device is folded once a quarter of an hour,
 * each at its own phase within it (from its id), so a fleet's folding is spread over the quarter
 * instead of all due at once.
 */
export const FOLD_STEP_SECONDS = 900;
/**
 * Devices folded in one transaction: their rows are locked while it runs, and their pushes
 * wait (100 at a time held them about 150 ms, and a ten-minute run at 20,000 devices measured
 * p99 566 ms).
 */
export const FOLD_BATCH = 25;
/** How often each instance looks for due devices: small bursts, not one a minute. */
export const FOLD_EVERY_MS = 15_000;

/** A device's phase in the quarter (seconds): ids next to each other fall far apart. */
const phase = (deviceId: number) => (deviceId * 719) % FOLD_STEP_SECONDS;

/**
 * Where the fold job brings a device at `now` (epoch seconds): the last moment of its phase at
 * least FOLD_GRACE_SECONDS ago, so always within one step after that.
 */
export const foldTarget = (now: Date, deviceId: number) => {
  const edge = now.getTime() / 1000 - FOLD_GRACE_SECONDS - phase(deviceId);
  return Math.floor(edge / FOLD_STEP_SECONDS) * FOLD_STEP_SECONDS + phase(deviceId);
};

const iso = (seconds: number) =>
  Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : "infinity";

/**
 * Recomputes each channel's buckets of every level that overlap [from, until) (epoch seconds):
 * the finest from their samples older than `cutoff` (`until` unless given), each level above
 * from the one below, just brought up to date. Afterwards `cutoff` is the channel's horizon:
 * the caller holds the channels' devices' rows and moves it.
 */
export async function foldChannels(
  db: Db,
  spans: readonly { channelId: number; from: number; until: number; cutoff?: number }[],
) {
  const finest = ROLLUP_LEVELS[0];
  const todo = spans.filter((s) => s.from < s.until);
  if (!todo.length) return;
  const column = (values: (string | number)[], type: string) =>
    sql`${`{${values.join(",")}}`}::${sql.raw(type)}`;
  const ids = column(
    todo.map((s) => s.channelId),
    "int[]",
  );
  const froms = column(
    todo.map((s) => iso(s.from)),
    "timestamptz[]",
  );
  const untils = column(
    todo.map((s) => iso(s.until)),
    "timestamptz[]",
  );
  // The samples read: from the first bucket's start to the last one's end, before the cutoff.
  const ends = column(
    todo.map((s) => iso(Math.min(s.cutoff ?? s.until, Math.ceil(s.until / finest) * finest))),
    "timestamptz[]",
  );
  // Each channel's samples and finer buckets read through the key (offset 0 keeps it a lookup
  // per channel).
  await db.execute(sql`insert into sample_rollups ${COLUMNS}
    select a.c, ${finest}, a.b, ${SUMMARY} from (
      select t.c, date_bin(${width(finest)}, s.time, ${epoch}) as b, ${OF_SAMPLES}
      from unnest(${ids}, ${froms}, ${ends}) as t(c, f, e)
      cross join lateral (select * from samples s where s.channel_id = t.c
        and s.time >= date_bin(${width(finest)}, t.f, ${epoch}) and s.time < t.e offset 0) as s
      group by 1, 2 order by 1, 2) as a
    ${UPSERT}`);
  for (let i = 1; i < ROLLUP_LEVELS.length; i++) {
    const level = ROLLUP_LEVELS[i]!;
    await db.execute(sql`insert into sample_rollups ${COLUMNS}
      select a.c, ${level}, a.b, ${SUMMARY} from (
        select t.c, date_bin(${width(level)}, r.bucket, ${epoch}) as b, ${OF_FINER}
        from unnest(${ids}, ${froms}, ${untils}) as t(c, f, u)
        cross join lateral (select * from sample_rollups r where r.channel_id = t.c
          and r.level = ${ROLLUP_LEVELS[i - 1]!} and r.bucket >= date_bin(${width(level)}, t.f, ${epoch})
          and r.bucket < t.u offset 0) as r
        group by 1, 2 order by 1, 2) as a
      ${UPSERT}`);
  }
}

/**
 * Folds up to FOLD_BATCH devices whose horizon is a whole step behind the grace (so surely
 * before their target), those furthest behind first, claimed with FOR UPDATE SKIP LOCKED:
 * several instances share the work without doing it twice, and a device whose batch of pushes
 * holds its row is taken next time. Returns how many.
 */
export async function foldSome(db: Db, now: Date, limit = FOLD_BATCH): Promise<number> {
  const due = now.getTime() / 1000 - FOLD_GRACE_SECONDS - FOLD_STEP_SECONDS;
  return inTransaction(db, async (tx) => {
    const claimed = await rows<{ id: number; h: number }>(
      tx,
      sql`select id, date_part('epoch', rolled_until)::float8 as h from devices
          where rolled_until <= to_timestamp(${due}) order by rolled_until limit ${limit}
          for update skip locked`,
    );
    if (!claimed.length) return 0;
    const ids = sql`${`{${claimed.map((c) => c.id).join(",")}}`}::int[]`;
    const horizon = new Map(claimed.map((c) => [c.id, c.h]));
    const channels = await rows<{ id: number; deviceId: number }>(
      tx,
      sql`select c.id, s.device_id as "deviceId" from sensors s
          join channel_groups g on g.sensor_id = s.id join channels c on c.channel_group_id = g.id
          where s.device_id = any(${ids}) order by c.id`,
    );
    await foldChannels(
      tx,
      channels.map((c) => ({
        channelId: c.id,
        from: horizon.get(c.deviceId)!,
        until: foldTarget(now, c.deviceId),
      })),
    );
    // The channels' rows catch up with their newest samples: the reads of a latest value then
    // start from there (channelValue.ts).
    await storeLatestValues(
      tx,
      channels.map((c) => c.id),
    );
    const targets = sql`${`{${claimed.map((c) => foldTarget(now, c.id)).join(",")}}`}::float8[]`;
    await tx.execute(sql`update devices d set rolled_until = to_timestamp(v.t)
      from unnest(${ids}, ${targets}) as v(id, t) where d.id = v.id`);
    return claimed.length;
  });
}

/**
 * Devices a fold transaction takes on PGlite. Its one connection is every push's too, and as it
 * runs in this thread a transaction there holds the event loop from start to end: 25 devices
 * were 100-250 ms in which no push was even read (p99 430 ms at 3,000 readings/s).
 */
export const PGLITE_FOLD_BATCH = 5;

/** The fold transaction's size for a database of this kind. */
export const foldBatchFor = (kind: "pglite" | "postgres") =>
  kind === "pglite" ? PGLITE_FOLD_BATCH : FOLD_BATCH;

/**
 * The fold job's task: batch after batch until no device is due (or `stopped`). Between two
 * batches the process reads what arrived meanwhile: on PGlite each statement's answer comes
 * without a turn of the event loop, so back-to-back batches would hold it for the whole pass.
 */
export async function foldRollups(
  db: Db,
  now: Date,
  stopped: () => boolean = () => false,
  batch = FOLD_BATCH,
) {
  let total = 0;
  for (;;) {
    const n = await foldSome(db, now, batch);
    total += n;
    if (n < batch || stopped()) return total;
    await nextTurn();
  }
}
