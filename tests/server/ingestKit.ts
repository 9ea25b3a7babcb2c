import { eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach } from "vitest";
import { buildApp } from "../../server/app.ts";
import { pushGate } from "../../server/core/keyLimiter.ts";
import { rows } from "../../server/db/client.ts";
import { devices } from "../../server/db/schema/index.ts";
import { randomToken, sha256 } from "../../server/core/crypto.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

export const MAC = "00:1A:2B:3C:4D:01";
export const COLD_TEMP = `${MAC}_W1A001_1200_0_1`;
export const COLD_HUM = `${MAC}_W1A001_1200_0_2`;
export const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);
/** The device's own key: demo keys work only in demo mode, and these tests run outside it. */
export const KEY = randomToken();

/** Limits no test reaches: for tests of the database's side of one device's simultaneous pushes. */
const UNLIMITED = {
  inFlight: 1e6,
  burst: 1e6,
  perSecond: 1e6,
  burstBytes: 1e12,
  bytesPerSecond: 1e12,
  maxKeys: 1e6,
};

/**
 * A seeded app whose lab device pushes with KEY, a push helper and a count of stored samples.
 * `unlimited` lifts the per-key push limits in front of ingestion (tests/server/attack32Push.test.ts
 * tests those), for tests of what the database does with many pushes of one device at once.
 */
export function useIngestApp(opts: { unlimited?: boolean } = {}) {
  const ctx = useTestApp({ seeded: true });
  let app: ReturnType<typeof buildApp> | undefined;
  beforeAll(() => {
    if (opts.unlimited)
      app = buildApp({
        db: ctx.database.db,
        config: testConfig(),
        now: () => TEST_NOW,
        pushLimiter: pushGate({ limits: UNLIMITED, unverifiedPerClient: 1e6, maxKnown: 1e6 }),
      });
  });
  beforeEach(async () => {
    await ctx.database.db
      .update(devices)
      .set({ ingestKeyHash: sha256(KEY) })
      .where(eq(devices.macAddress, MAC));
  });
  const push = (body: unknown, key: string | null = KEY, type = "application/json") =>
    (app ?? ctx.app).request("/api/v1/device-data/push", {
      method: "POST",
      headers: { "content-type": type, ...(key ? { authorization: `Device ${key}` } : {}) },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const sampleCount = async () =>
    (await rows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from samples`))[0]!.n;
  return { ctx, push, sampleCount };
}
