import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { ApiError } from "../http/errors.ts";

export interface Limit {
  /** What is counted, e.g. "signin-fail:email:a@b.c". */
  key: string;
  max: number;
  windowSeconds: number;
}

const windowStart = (now: Date, seconds: number) =>
  new Date(Math.floor(now.getTime() / (seconds * 1000)) * seconds * 1000);

/** Counts one event in the database (shared by all instances) and returns the window's count. */
export async function hit(db: Db, limit: Limit, now: Date): Promise<number> {
  const start = windowStart(now, limit.windowSeconds).toISOString();
  const [row] = await rows<{ count: number }>(
    db,
    sql`insert into rate_limits (key, window_start, count) values (${limit.key}, ${start}::timestamptz, 1)
        on conflict (key, window_start) do update set count = rate_limits.count + 1
        returning count`,
  );
  return row?.count ?? 1;
}

/** The count so far in the current window. */
export async function peek(db: Db, limit: Limit, now: Date): Promise<number> {
  const start = windowStart(now, limit.windowSeconds).toISOString();
  const [row] = await rows<{ count: number }>(
    db,
    sql`select count from rate_limits where key = ${limit.key} and window_start = ${start}::timestamptz`,
  );
  return row?.count ?? 0;
}

/** Refuses with 429 and says how long to wait once the window's count has reached its max. */
export async function refuseIfOver(db: Db, limit: Limit, now: Date, field: string | null = null) {
  if ((await peek(db, limit, now)) < limit.max) return;
  const ends = windowStart(now, limit.windowSeconds).getTime() + limit.windowSeconds * 1000;
  const minutes = Math.max(1, Math.ceil((ends - now.getTime()) / 60_000));
  throw new ApiError(429, [
    { field, message: `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` },
  ]);
}

/** Counts and then refuses when over: for actions limited per attempt, not per failure. */
export async function consume(db: Db, limit: Limit, now: Date, field: string | null = null) {
  await refuseIfOver(db, limit, now, field);
  await hit(db, limit, now);
}
