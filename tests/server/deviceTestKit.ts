import { sql } from "drizzle-orm";
import { browser, signIn, type Browser } from "./client.ts";
import type { useTestApp } from "./helpers.ts";
import { rowsOf, type Db } from "./ownership.ts";

/* Shared pieces of the device tests (devices*.test.ts): callers, seeded ids, samples. */

export const ORIGIN = "http://localhost";
export const NOT_FOUND = { success: false, data: [{ field: null, message: "Not found." }] };
export const FORBIDDEN = "You do not have permission to do that.";
/** An id no row has. */
export const NO_SUCH_ID = 2_147_483_647;
export const RA_MAC = "00:1A:2B:3C:4D:01";
export const COLD_ROOM = `${RA_MAC}_W1A001_1200_0`;

type Ctx = ReturnType<typeof useTestApp>;

/** A browser signed in as the given demo person. */
export async function signedIn(ctx: Ctx, email: string): Promise<Browser> {
  const b = browser(ctx.app, ORIGIN);
  await signIn(b, email);
  return b;
}

/** The id of the seeded device with this name. */
export async function deviceId(db: Db, name: string): Promise<number> {
  const [row] = await rowsOf<{ id: number }>(db, sql`select id from devices where name = ${name}`);
  return row!.id;
}

/** The id of a channel by key. */
export async function channelId(db: Db, key: string): Promise<number> {
  const [row] = await rowsOf<{ id: number }>(db, sql`select id from channels where channel_key = ${key}`);
  return row!.id;
}

/** Stores samples (time in epoch seconds) for a channel. */
export async function addSamples(db: Db, channel: number, points: readonly [number, number][]) {
  for (let i = 0; i < points.length; i += 5000) {
    const part = points.slice(i, i + 5000);
    await db.execute(
      sql`insert into samples (channel_id, time, value)
          select ${channel}, to_timestamp(t), v
          from unnest(${sql.raw(`array[${part.map((p) => p[0]).join(",")}]::float8[]`)},
                      ${sql.raw(`array[${part.map((p) => p[1]).join(",")}]::float8[]`)}) as x(t, v)`,
    );
  }
}

/** Turns a plan feature on or off for the subscription whose name starts so. */
export async function setFeature(db: Db, subscription: string, feature: string, on: boolean) {
  await db.execute(
    sql`update subscriptions set features = jsonb_set(features, ${`{${feature}}`}::text[], ${on ? "true" : "false"}::jsonb)
        where name like ${`${subscription}%`}`,
  );
}

/** A multipart form body, as the browser's FormData sends it. */
export function multipart(fields: Record<string, string>): RequestInit {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return { method: "POST", body: form };
}
