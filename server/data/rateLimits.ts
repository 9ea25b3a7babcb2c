import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { ApiError } from "../core/errors.ts";

export interface Limit {
  /** What is counted, e.g. "signin-fail:a@b.c". */
  key: string;
  max: number;
  windowSeconds: number;
}

/** One counted event, kept so that it can be given back (see release). */
export interface Slot {
  key: string;
  at: string;
}

const MINUTES_15 = 900;
/** Old keys are swept now and then, about once per this many reservations. */
const SWEEP_EVERY = 200;

/** Wrong passwords of an address: sign-in and the password check of /s/security share them. */
export const passwordFailures = (email: string): Limit => ({
  key: `signin-fail:${email.trim().toLowerCase()}`,
  max: 5,
  windowSeconds: MINUTES_15,
});

/**
 * Every password check of a signed-in person (the security page's), right or wrong: a right
 * password must not make the check a free stream of hashes that starves others' sign-ins.
 */
export const passwordChecks = (userId: number): Limit => ({
  key: `password-check:${userId}`,
  max: 10,
  windowSeconds: MINUTES_15,
});

/** Wrong one-time codes of a person. */
export const codeFailures = (userId: number): Limit => ({
  key: `otp-fail:${userId}`,
  max: 5,
  windowSeconds: MINUTES_15,
});

/**
 * Takes one place in the key's sliding window, or refuses with 429 before any work is done.
 * One statement, so parallel requests cannot all pass a check made before any of them counts:
 * the upsert locks the key's row, and its `where` leaves the row alone (no row returned) when
 * the window is full. Refused attempts are not recorded, so they do not prolong a lock.
 */
export async function reserve(db: Db, limit: Limit, now: Date, field: string | null = null): Promise<Slot> {
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - limit.windowSeconds * 1000).toISOString();
  const taken = await rows<{ key: string }>(
    db,
    sql`insert into rate_limits as r (key, events) values (${limit.key}, array[${at}::timestamptz])
        on conflict (key) do update
          set events = array(select e from unnest(r.events) e where e > ${cutoff}::timestamptz order by e)
                       || ${at}::timestamptz
          where (select count(*) from unnest(r.events) e where e > ${cutoff}::timestamptz) < ${limit.max}
        returning key`,
  );
  if (Math.floor(Math.random() * SWEEP_EVERY) === 0) await sweep(db, now);
  if (taken.length) return { key: limit.key, at };
  throw new ApiError(429, [{ field, message: tooMany(await minutesLeft(db, limit, cutoff, now)) }]);
}

/** Counts an attempt: for actions limited per attempt (sign-ups, reset mails), not per failure. */
export async function consume(db: Db, limit: Limit, now: Date, field: string | null = null) {
  await reserve(db, limit, now, field);
}

/** Gives a place back: the attempt turned out not to be a failure (right password or code). */
export async function release(db: Db, slot: Slot) {
  await db.execute(
    sql`update rate_limits
        set events = events[:array_position(events, ${slot.at}::timestamptz) - 1]
                     || events[array_position(events, ${slot.at}::timestamptz) + 1:]
        where key = ${slot.key} and array_position(events, ${slot.at}::timestamptz) is not null`,
  );
}

/**
 * Runs the check a slot was reserved for; a check that could not run at all (the hash queue
 * was full) gives its slot back, since nothing was guessed.
 */
export async function runCounted<T>(db: Db, slot: Slot, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (e) {
    await release(db, slot);
    throw e;
  }
}

/**
 * Counts an event nobody is refused for (a lookup's miss, counted over all clients): the
 * window keeps at most `limit.max` of its newest events, so the row stays small however busy
 * the key. Returns how many the window holds now.
 */
export async function noteEvent(db: Db, limit: Limit, now: Date): Promise<number> {
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - limit.windowSeconds * 1000).toISOString();
  const [row] = await rows<{ n: number }>(
    db,
    sql`insert into rate_limits as r (key, events) values (${limit.key}, array[${at}::timestamptz])
        on conflict (key) do update
          set events = array(select k.e from (select e from unnest(r.events) e where e > ${cutoff}::timestamptz
                                              order by e desc limit ${Math.max(0, limit.max - 1)}) k order by k.e)
                       || ${at}::timestamptz
        returning cardinality(events)::int as n`,
  );
  return row?.n ?? 0;
}

/** How many events a key's window holds (see noteEvent). */
export async function eventsInWindow(db: Db, limit: Limit, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - limit.windowSeconds * 1000).toISOString();
  const [row] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from rate_limits, unnest(events) e
        where key = ${limit.key} and e > ${cutoff}::timestamptz`,
  );
  return row?.n ?? 0;
}

/** Forgets a key's events, e.g. an address's wrong passwords once its password is reset. */
export async function clear(db: Db, limit: Limit) {
  await db.execute(sql`delete from rate_limits where key = ${limit.key}`);
}

/** Whole minutes until the oldest event in the window leaves it and a place frees up. */
async function minutesLeft(db: Db, limit: Limit, cutoff: string, now: Date): Promise<number> {
  const [row] = await rows<{ oldest: string | Date | null }>(
    db,
    sql`select min(e) as oldest from rate_limits, unnest(events) e
        where key = ${limit.key} and e > ${cutoff}::timestamptz`,
  );
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : now.getTime();
  return Math.max(1, Math.ceil((oldest + limit.windowSeconds * 1000 - now.getTime()) / 60_000));
}

const tooMany = (minutes: number) =>
  `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;

/** Drops keys whose newest event is a day old: no window is longer than that. */
async function sweep(db: Db, now: Date) {
  const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
  await db.execute(
    sql`delete from rate_limits where coalesce(events[cardinality(events)], '-infinity') < ${dayAgo}::timestamptz`,
  );
}
