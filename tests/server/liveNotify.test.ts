import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client.ts";
import {
  announceDevice,
  announceSessionsEnded,
  LIVE_CHANNEL,
  listenDevices,
  type DeviceListener,
} from "../../server/data/liveNotify.ts";
import { openTestDatabase } from "./helpers.ts";

/* LISTEN/NOTIFY as the live readings use it, on PGlite (and on PostgreSQL with TEST_DATABASE_URL). */

const AT = new Date("2026-11-22T12:00:00Z");
const settle = () => new Promise((r) => setTimeout(r, 300));

describe("device announcements", () => {
  let database: Database & { drop(): Promise<void> };
  let listener: DeviceListener;
  const heard: number[] = [];
  const users: number[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    listener = await listenDevices(database.db, {
      onDevice: (id) => heard.push(id),
      onUser: (id) => users.push(id),
      onResume: () => {},
    });
  });
  afterAll(async () => {
    await listener?.close();
    await database?.drop();
  });

  it("reach a listener only when the announcing transaction commits", async () => {
    heard.length = 0;
    let beforeCommit: number[] = [];
    await database.db.transaction(async (tx) => {
      await announceDevice(tx as never, 7, AT);
      await settle();
      beforeCommit = [...heard];
    });
    await settle();
    expect(beforeCommit).toEqual([]);
    expect(heard).toEqual([7]);
  });

  it("never reach a listener from a transaction that rolls back", async () => {
    heard.length = 0;
    await database.db
      .transaction(async (tx) => {
        await announceDevice(tx as never, 8, AT);
        throw new Error("the push fails after announcing");
      })
      .catch(() => {});
    await announceDevice(database.db, 9, AT);
    await settle();
    expect(heard).toEqual([9]);
  });

  it("ignore anything else said on the channel", async () => {
    heard.length = 0;
    for (const payload of ["", "not json", '{"deviceId":"1"}', '{"deviceId":-1}', '{"deviceId":1.5}'])
      await database.db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`);
    await announceDevice(database.db, 10, AT);
    await settle();
    expect(heard).toEqual([10]);
  });

  it("tell a listener whose sessions ended, apart from the devices", async () => {
    heard.length = 0;
    users.length = 0;
    await announceSessionsEnded(database.db, 42);
    await database.db.execute(sql`select pg_notify(${LIVE_CHANNEL}, '{"userId":"42"}')`);
    await settle();
    expect([heard, users]).toEqual([[], [42]]);
  });
});
