import { eq, inArray, sql } from "drizzle-orm";
import { type Db, inTransaction, rows } from "../db/client.ts";
import { channels, reports } from "../db/schema/index.ts";
import { ensureSamplePartitionsBetween } from "../data/partitions.ts";
import { rollUpRange, rollupCoverage } from "../data/rollups.ts";
import { DEMO } from "./demo.ts";
import { REPORT_CHANNELS } from "./reports.ts";
import { seedSamples } from "./samples.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;
// PGlite runs in this thread: a day per statement (1,440 rows, ~0.1 s) and a pause between
// statements keep requests flowing while the history is written.
const CHUNK_DAYS = 1;
const PAUSE_MS = 20;
const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
/** A chunk writes ~0.4 MB of WAL: a checkpoint every 60 keeps it under PGlite's 64 MB (db/client.ts). */
const CHECKPOINT_CHUNKS = 60;
/** Rollups of older samples are rebuilt a day at a time, on whole three-hour buckets. */
const BACKFILL_SECONDS = 86_400;
const ALIGN_SECONDS = 10_800;

/**
 * What happened in the demo's lab, relative to the seed's time: the incubator's wireless
 * sensor went silent twice (its charts show a gap), and the cold room's door was left open
 * twice (an excursion above 8 °C into 'Cold room too warm'). One of each lies in the rolling
 * 24 hours of the first day after seeding, one in the fixed report's audit week.
 */
export const DEMO_EVENTS = {
  offline: [
    { from: -8 * HOUR, to: -6 * HOUR },
    { from: -26 * DAY - 14 * HOUR, to: -26 * DAY - 10 * HOUR },
  ],
  doorOpen: [
    { from: -3 * HOUR, to: -2 * HOUR - 20 * 60_000, peak: 6.5 },
    { from: -28 * DAY - 9 * HOUR, to: -28 * DAY - 8 * HOUR, peak: 7 },
  ],
} as const;
/** The report channels the events touch: the cold room's temperature and the incubator's sensor. */
export const DOOR_CHANNEL = REPORT_CHANNELS[0]!.key;
export const SILENT_CHANNEL = REPORT_CHANNELS[2]!.key;

/**
 * The time the demo was seeded (its samples end there), read back from the fixed report
 * (seeded to end 23 days before it), or null when that report is gone.
 */
export async function seededAt(db: Db): Promise<Date | null> {
  const [fixed] = await db
    .select({ end: reports.endDate })
    .from(reports)
    .where(eq(reports.publicHash, DEMO.fixedReportHash));
  return fixed?.end ? new Date(fixed.end.getTime() + 23 * DAY) : null;
}

/** Every channel of the silent sensor (all of them stop), and the cold room's temperature. */
async function eventChannels(db: Db) {
  const silent = await rows<{ id: number }>(
    db,
    sql`select c.id from channels c join channel_groups g on g.id = c.channel_group_id
        where g.sensor_id = (select g2.sensor_id from channels c2
          join channel_groups g2 on g2.id = c2.channel_group_id where c2.channel_key = ${SILENT_CHANNEL})`,
  );
  const [door] = await db
    .select({ id: channels.id })
    .from(channels)
    .where(eq(channels.channelKey, DOOR_CHANNEL));
  return { silent: silent.map((r) => r.id), door: door?.id };
}
type Events = { seedEnd: Date; silent: number[]; door: number | undefined };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Writes the demo's events into the samples of `ids` in [from, to) (epoch ms). Both are
 * idempotent, so a stretch passed twice (a fill stopped and resumed) ends the same: a silent
 * stretch deletes its samples; an open door rewrites the cold room's samples from the seed's
 * formula plus a rise and fall.
 */
async function applyEvents(db: Db, events: Events, ids: readonly number[], from: number, to: number) {
  const at = (offset: number) => events.seedEnd.getTime() + offset;
  const silent = ids.filter((id) => events.silent.includes(id));
  for (const e of DEMO_EVENTS.offline) {
    const [a, b] = [Math.max(from, at(e.from)), Math.min(to, at(e.to))];
    if (a >= b || !silent.length) continue;
    const list = sql.join(
      silent.map((id) => sql`${id}`),
      sql`, `,
    );
    await db.execute(sql`delete from samples where channel_id in (${list})
      and time >= ${iso(a)}::timestamptz and time < ${iso(b)}::timestamptz`);
  }
  const door = events.door;
  if (door === undefined || !ids.includes(door)) return;
  for (const e of DEMO_EVENTS.doorOpen) {
    const a = Math.ceil(Math.max(from, at(e.from)) / 60_000) * 60_000;
    const b = Math.min(to, at(e.to));
    if (a >= b) continue;
    const inWindow = sql`channel_id = ${door} and time >= ${iso(a)}::timestamptz and time < ${iso(b)}::timestamptz`;
    await db.execute(sql`delete from samples where ${inWindow}`);
    const last = Math.ceil(b / 60_000) * 60_000 - 60_000;
    await seedSamples(db, door, REPORT_CHANNELS[0]!.shape, {
      end: new Date(last),
      days: (last - a) / DAY,
      stepMinutes: 1,
    });
    const mid = (at(e.from) + at(e.to)) / 2000;
    const half = (at(e.to) - at(e.from)) / 2000;
    const rise = sql`${e.peak}::float8 * (1 - abs(extract(epoch from time)::float8 - ${mid}::float8) / ${half}::float8)`;
    await db.execute(
      sql`update samples set value = round((value + ${rise})::numeric, 2)::float8 where ${inWindow}`,
    );
  }
}

/** Epoch seconds rounded to whole three-hour buckets. */
const aligned = (s: number, round: (n: number) => number) => round(s / ALIGN_SECONDS) * ALIGN_SECONDS;

/** Per channel with samples, the span [from, to) (epoch seconds) that no rollup covers yet. */
async function uncovered(db: Db) {
  const all = await db.select({ id: channels.id }).from(channels).orderBy(channels.id);
  const spans: { id: number; from: number; to: number }[] = [];
  for (const { id } of all) {
    const cover = await rollupCoverage(db, id);
    if (cover.oldestSample === null) continue;
    if (cover.oldestBucket !== null && cover.oldestBucket <= cover.oldestSample) continue;
    const [newest] = await rows<{ t: number }>(
      db,
      sql`select date_part('epoch', max(time)) as t from samples where channel_id = ${id}`,
    );
    const to = aligned(cover.oldestBucket ?? newest!.t + 1, Math.ceil);
    spans.push({ id, from: aligned(cover.oldestSample, Math.floor), to });
  }
  return spans;
}

/**
 * Rolls up every channel's samples that no rollup covers yet: on the first start after seeding
 * that is the seed's recent days (the demo's recent events are written into them first), on a
 * database from before rollups existed all of its samples. Newest first, a day of all channels
 * at a time, so a stopped run carries on where it ended.
 */
async function rollUpUncovered(db: Db, events: Events | null, opts: { stopped?: () => boolean }) {
  const spans = await uncovered(db);
  if (!spans.length) return;
  const floor = Math.min(...spans.map((s) => s.from));
  let to = Math.max(...spans.map((s) => s.to));
  while (to > floor && !opts.stopped?.()) {
    const from = Math.max(floor, to - BACKFILL_SECONDS);
    const ids = spans.filter((s) => s.from < to && s.to > from).map((s) => s.id);
    await inTransaction(db, async (tx) => {
      if (events) await applyEvents(tx, events, ids, from * 1000, to * 1000);
      await rollUpRange(tx, ids, from, to);
    });
    await pause();
    to = from;
  }
}

/** Where a fill is: day `day` of `days` of channel `channel` of `channels`; `done` of `total` channel-days in all. */
export interface HistoryProgress {
  channel: number;
  channels: number;
  day: number;
  days: number;
  done: number;
  total: number;
}

/** The progress as one line a person can read: what is counted, and how far in all. */
export function historyProgressText(p: HistoryProgress): string {
  const percent = p.total ? Math.floor((p.done / p.total) * 100) : 100;
  return `Demo report history: sensor channel ${p.channel} of ${p.channels}, day ${p.day} of ${p.days} (${percent}% in all)`;
}

/**
 * Fills the report channels' minute history back to `sampleDays` before `now`, a day at a
 * time, newest first, each day with the demo's events and its rollups in one transaction. It
 * starts from the oldest sample already stored, so a start that was stopped half way carries
 * on where it stopped; values are a function of channel and time, so the result is the same
 * as one long seed. First it rolls up what the seed wrote with the records.
 */
export async function fillHistory(
  db: Db,
  opts: {
    now: Date;
    sampleDays: number;
    onProgress?: (progress: HistoryProgress) => void;
    /** Asked between chunks: a stopping server ends the fill there (the next start resumes). */
    stopped?: () => boolean;
    /**
     * Run every CHECKPOINT_CHUNKS chunks and at the end (PGlite's CHECKPOINT): PGlite runs
     * Postgres in single-user mode, which never checkpoints by itself, so without it every
     * WAL segment of the fill stays on disk (480 MB for the year of history).
     */
    checkpoint?: (() => Promise<unknown>) | undefined;
  },
) {
  const seedEnd = await seededAt(db);
  const events = seedEnd ? { seedEnd, ...(await eventChannels(db)) } : null;
  await rollUpUncovered(db, events, opts);
  const found = await db
    .select({ id: channels.id, key: channels.channelKey })
    .from(channels)
    .where(
      inArray(
        channels.channelKey,
        REPORT_CHANNELS.map((c) => c.key),
      ),
    );
  const target = Math.floor(opts.now.getTime() / 60_000) * 60_000 - opts.sampleDays * DAY;
  // The year of history goes into monthly partitions, not the default one (created up front).
  await ensureSamplePartitionsBetween(db, new Date(target), opts.now);
  const todo: { id: number; shape: (typeof REPORT_CHANNELS)[number]["shape"]; end: number; days: number }[] =
    [];
  for (const rc of REPORT_CHANNELS) {
    const id = found.find((f) => f.key === rc.key)?.id;
    if (id === undefined) continue;
    const [row] = await rows<{ earliest: string | Date | null }>(
      db,
      sql`select min(time) as earliest from samples where channel_id = ${id}`,
    );
    const end = row?.earliest
      ? new Date(row.earliest).getTime()
      : Math.floor(opts.now.getTime() / 60_000) * 60_000;
    todo.push({ id, shape: rc.shape, end, days: Math.max(0, Math.ceil((end - target) / DAY)) });
  }
  const total = todo.reduce((sum, t) => sum + t.days, 0);
  let before = 0;
  let chunks = 0;
  for (const [i, { id, shape, days: channelDays, ...t }] of todo.entries()) {
    let end = t.end;
    while (end > target && !opts.stopped?.()) {
      const days = Math.min(CHUNK_DAYS, (end - target) / DAY);
      const from = end - days * DAY;
      await inTransaction(db, async (tx) => {
        await seedSamples(tx, id, shape, { end: new Date(end), days, stepMinutes: 1 });
        if (events) await applyEvents(tx, events, [id], from, end);
        await rollUpRange(tx, [id], from / 1000, end / 1000);
      });
      await pause();
      if (++chunks % CHECKPOINT_CHUNKS === 0) await opts.checkpoint?.();
      end = from;
      const day = channelDays - Math.max(0, Math.ceil((end - target) / DAY));
      opts.onProgress?.({
        channel: i + 1,
        channels: todo.length,
        day,
        days: channelDays,
        done: before + day,
        total,
      });
    }
    before += channelDays;
  }
  if (chunks) await opts.checkpoint?.();
}
