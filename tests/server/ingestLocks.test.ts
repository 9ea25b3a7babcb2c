import { eq, sql } from "drizzle-orm";
import type { Socket } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { devices } from "../../server/db/schema/index.ts";
import { BAD_DEVICE_KEY, PUSH_WAITED_TOO_LONG, SUSPENDED } from "../../server/data/ingest.ts";
import { sha256, randomToken } from "../../server/core/crypto.ts";
import { COLD_TEMP, KEY, MAC, NOW_S, useIngestApp } from "./ingestKit.ts";

/*
 * A push that passed its checks and then waited for the device's row: what changed meanwhile
 * decides. On PostgreSQL another connection holds the row here, as another instance would; on
 * PGlite (one connection) the holder runs first and the push's own checks see the change.
 */
const onPostgres = Boolean(process.env["TEST_DATABASE_URL"]);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LOCK_WAITS = sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock'`;

/** Checks every 20 ms until true, for up to 5 s. */
async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 250; i++) {
    if (await check()) return;
    await pause(20);
  }
  throw new Error("waited 5 s in vain");
}

describe("a push waiting for its device's row", () => {
  const { ctx, push, sampleCount } = useIngestApp({ unlimited: true });
  const reading = (value: number) => ({
    macAddress: MAC,
    readings: [{ channelKey: COLD_TEMP, value, time: NOW_S - 5 }],
  });

  /** Holds the device's row for `ms` while `sent` is sent, then changes the row (or not) and lets go. */
  async function holdingTheRow(
    ms: number,
    sent: () => Promise<Response>,
    change?: Partial<typeof devices.$inferInsert>,
  ) {
    let answer!: Promise<Response>;
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from devices where mac_address = ${MAC} for update`);
      answer = sent();
      await pause(ms);
      if (change) await tx.update(devices).set(change).where(eq(devices.macAddress, MAC));
    });
    return answer;
  }

  it("stores nothing once the device was suspended while it waited", async () => {
    const before = await sampleCount();
    const res = await holdingTheRow(300, () => Promise.resolve(push(reading(-3))), { isSuspended: true });
    expect(res.status).toBe(403);
    expect((await res.json()).data).toEqual([{ field: null, message: SUSPENDED }]);
    expect(await sampleCount()).toBe(before);
    await ctx.database.db.update(devices).set({ isSuspended: false }).where(eq(devices.macAddress, MAC));
  });

  it("stores nothing once the device was given a new key while it waited", async () => {
    const before = await sampleCount();
    const res = await holdingTheRow(300, () => Promise.resolve(push(reading(-4))), {
      ingestKeyHash: sha256(randomToken()),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).data).toEqual([{ field: null, message: BAD_DEVICE_KEY }]);
    expect(await sampleCount()).toBe(before);
  });

  describe("over a real connection", () => {
    let server: ServerType;
    let url = "";
    const connections: Socket[] = [];
    beforeAll(async () => {
      server = serve({ fetch: ctx.app.fetch, port: 0, hostname: "127.0.0.1" });
      server.on("connection", (socket: Socket) => connections.push(socket));
      await new Promise<void>((resolve) => server.once("listening", resolve));
      url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/device-data/push`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const send = (value: number, second: number, signal?: AbortSignal) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Device ${KEY}` },
        body: JSON.stringify({
          macAddress: MAC,
          readings: [{ channelKey: COLD_TEMP, value, time: NOW_S - second }],
        }),
        ...(signal ? { signal } : {}),
      });
    const stored = async (value: number) =>
      (await rows(ctx.database.db, sql`select 1 from samples where value = ${value}`)).length;

    it("drops unstored a push whose client went away while it waited its turn", async () => {
      const leaving = new AbortController();
      let first!: Promise<Response>;
      let second!: Promise<unknown>;
      await ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from devices where mac_address = ${MAC} for update`);
        first = send(-7.25, 7);
        // On PostgreSQL the first push runs until it waits for the row (on PGlite every query
        // waits for this transaction, and the pushes keep their order there).
        if (onPostgres) await until(async () => (await rows<{ n: number }>(tx, LOCK_WAITS))[0]!.n > 0);
        else await pause(100);
        second = send(-8.25, 8, leaving.signal).catch((e: unknown) => e);
        await pause(500);
        leaving.abort();
        await second;
        // The server has seen the second push's connection close (the others stay open).
        await until(async () => connections.some((c) => c.destroyed));
      });
      expect((await first).status).toBe(200);
      // Turns run in arrival order: once a later push is answered, the one that left was handled.
      expect((await send(-9.25, 9)).status).toBe(200);
      expect(await stored(-7.25)).toBe(1);
      expect(await stored(-8.25)).toBe(0);
      expect(await stored(-9.25)).toBe(1);
    });
  });

  it.runIf(onPostgres)(
    "gives up with 503 after the lock timeout while another connection holds the row, storing nothing",
    { timeout: 30_000 },
    async () => {
      const before = await sampleCount();
      const started = Date.now();
      let answeredAfter = 0;
      const res = await holdingTheRow(8_000, () =>
        Promise.resolve(push(reading(-5))).then((r) => ((answeredAfter = Date.now() - started), r)),
      );
      // Answered while the row was still held (the 5 s lock timeout), not once the holder let go.
      expect(answeredAfter).toBeGreaterThanOrEqual(4_500);
      expect(answeredAfter).toBeLessThan(8_000);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect((await res.json()).data).toEqual([{ field: null, message: PUSH_WAITED_TOO_LONG }]);
      expect(await sampleCount()).toBe(before);
      // The device pushes again as soon as the row is free.
      expect((await push(reading(-6))).status).toBe(200);
    },
  );
});
