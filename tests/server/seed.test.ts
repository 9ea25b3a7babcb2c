import { asc, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import {
  channelGroups,
  countries,
  devices,
  orderLineItems,
  orders,
  quotes,
  sensors,
  userAssignments,
  users,
} from "../../server/db/schema/index.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { CATALOGUE } from "../../src/domain/catalogue.ts";
import { REPORT_CHANNELS } from "../../server/seed/reports.ts";
import { emptyDatabase, isEmpty, seedDemo } from "../../server/seed/index.ts";
import {
  Role,
  batteryBand,
  billingStatus,
  epochSeconds,
  isSensorMuted,
  publicShippingStatus,
  signalStrength,
  subtotal,
} from "../../src/domain/index.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

describe("demo seed", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;

  it("writes the same ids, hashes and numbers on every run", async () => {
    const snapshot = async () => ({
      devices: await db()
        .select({ id: devices.id, hash: devices.publicPageHash, mac: devices.macAddress })
        .from(devices)
        .orderBy(asc(devices.id)),
      quotes: await db()
        .select({ id: quotes.id, token: quotes.publicToken, tax: quotes.tax })
        .from(quotes)
        .orderBy(asc(quotes.id)),
      orders: await db()
        .select({ id: orders.id, v: orders.validationId, tax: orders.tax })
        .from(orders)
        .orderBy(asc(orders.id)),
      samples: await rows(
        db(),
        sql`select channel_id, value from samples order by channel_id, time limit 50`,
      ),
    });
    const first = await snapshot();
    await emptyDatabase(db());
    expect(await isEmpty(db())).toBe(true);
    await seedDemo(db(), { now: TEST_NOW, sampleDays: 0 });
    expect(await snapshot()).toEqual(first);
    expect(first.devices.find((d) => d.hash === DEMO.raDeviceHash)).toBeDefined();
  });

  it("gives every role a sign-in and one user with terms not accepted", async () => {
    const roles = new Set((await db().select().from(userAssignments)).map((a) => a.roleId));
    expect([...roles].sort()).toEqual(Object.values(Role).sort());
    const pending = (await db().select().from(users)).filter((u) => u.termsAcceptedAt === null);
    expect(pending).toHaveLength(1);
  });

  it("has open, closed and expired quotes", async () => {
    const all = await db().select().from(quotes);
    expect(all.some((q) => q.status === "Closed")).toBe(true);
    expect(all.some((q) => q.status !== "Closed" && q.expiresAt! > TEST_NOW)).toBe(true);
    expect(all.some((q) => q.status !== "Closed" && q.expiresAt! < TEST_NOW)).toBe(true);
  });

  it("has orders in every billing and public shipping status", async () => {
    const all = await db().query.orders.findMany();
    const billing = new Set(all.map((o) => billingStatus(o.paymentStatus)));
    expect([...billing].sort()).toEqual(["Cancelled", "Closed", "Open", "Paid", "Refunded"]);
    const shipmentRows = await rows<{ order_id: number; is_delivered: boolean }>(
      db(),
      sql`select order_id, is_delivered from shipments`,
    );
    const shipping = new Set(
      all.map((o) =>
        publicShippingStatus({
          shippingStatus: o.shippingStatus,
          shippingTimestamp: o.shippingTimestamp ? epochSeconds(o.shippingTimestamp.getTime() / 1000) : null,
          shipments: shipmentRows
            .filter((s) => s.order_id === o.id)
            .map((s) => ({ isDelivered: s.is_delivered })),
        }),
      ),
    );
    expect([...shipping].sort()).toEqual([
      "cancelled",
      "delivered",
      "hold",
      "partial",
      "received",
      "shipped",
    ]);
  });

  it("gives every order its own total, sold from the catalogue with varied products and quantities", async () => {
    const lines = await db().select().from(orderLineItems).orderBy(asc(orderLineItems.id));
    const all = (await db().select().from(orders)).map((o) => ({
      ...o,
      lineItems: lines.filter((l) => l.orderId === o.id),
    }));
    expect(all).toHaveLength(12);
    const totals = all.map((o) => subtotal(o.lineItems) + o.tax + o.shippingAmount);
    expect(new Set(totals).size).toBe(all.length);
    const baskets = all.map((o) => o.lineItems.map((l) => `${l.productNumber}x${l.quantity}`).join());
    expect(new Set(baskets).size).toBe(all.length);
    for (const l of all.flatMap((o) => o.lineItems))
      expect(Object.keys(CATALOGUE)).toContain(l.productNumber);
  });

  it("dates no carrier scan after now: a shipment on its way has only the scans so far", async () => {
    const [latest] = await rows<{ at: Date | string; n: number }>(
      db(),
      sql`select max(occurred_at) as at, count(*)::int as n from tracking_activity`,
    );
    expect(latest!.n).toBeGreaterThan(10);
    expect(new Date(latest!.at).getTime()).toBeLessThanOrEqual(TEST_NOW.getTime());
  });

  it("has RA and RAMAX devices, every battery band, both signal strengths, a hidden and a stale sensor", async () => {
    const types = (await db().select().from(devices)).map((d) => d.deviceType);
    expect(types).toEqual(expect.arrayContaining(["RA12", "RAMAX", "WS2"]));
    const all = await db().select().from(sensors);
    const bands = new Set(all.filter((s) => s.battery !== null).map((s) => batteryBand(s.battery!)));
    expect([...bands].sort()).toEqual(["Good", "Low", "Ok"]);
    const signals = new Set(all.filter((s) => s.signal !== null).map((s) => signalStrength(s.signal!)));
    expect([...signals].sort()).toEqual(["Okay", "Strong"]);
    const now = epochSeconds(TEST_NOW.getTime() / 1000);
    expect(all.some((s) => isSensorMuted(epochSeconds(s.lastReceivedAt!.getTime() / 1000), now))).toBe(true);
    expect((await db().select().from(channelGroups)).some((g) => g.isHidden)).toBe(true);
  });

  it("ends each device channel's history on its current value when its sensor last reported, report channels included", async () => {
    await emptyDatabase(db());
    await seedDemo(db(), { now: TEST_NOW, sampleDays: 1 });
    const reportKeys = REPORT_CHANNELS.map((c) => c.key);
    const ends = await rows<{
      key: string;
      value: number;
      valueAt: Date;
      newest: number;
      at: Date;
      lastAt: Date;
    }>(
      db(),
      sql`select c.channel_key as key, c.value, c.value_at as "valueAt", s.value as newest, s.time as at, g.last_received_at as "lastAt"
          from channels c join channel_groups g on g.id = c.channel_group_id
          join lateral (select value, time from samples where channel_id = c.id order by time desc limit 1) s on true
          where c.value is not null`,
    );
    // Every value is as of its channel's newest sample, so an older push leaves it alone.
    for (const e of ends) expect(new Date(e.valueAt).getTime(), e.key).toBe(new Date(e.at).getTime());
    const devicesOwn = ends.filter((e) => !reportKeys.includes(e.key));
    expect(devicesOwn.length).toBeGreaterThan(10);
    for (const e of devicesOwn) {
      expect(e.newest, e.key).toBeCloseTo(e.value, 2);
      const lastSecond = Math.floor(new Date(e.lastAt).getTime() / 1000) * 1000;
      expect(new Date(e.at).getTime(), e.key).toBe(lastSecond);
    }
    // The report channels' cards show their chart's last point, not a value it never had.
    const reported = ends.filter((e) => reportKeys.includes(e.key));
    expect(reported).toHaveLength(REPORT_CHANNELS.length);
    for (const e of reported) expect(e.value, e.key).toBe(e.newest);
  });

  it("lists the US as id 1, Canada as id 4 and one crmId 0 entry", async () => {
    const all = await db().select().from(countries);
    expect(all.find((c) => c.id === 1)?.code).toBe("US");
    expect(all.find((c) => c.id === 4)?.code).toBe("CA");
    expect(all.filter((c) => c.crmId === 0)).toHaveLength(1);
  });
});
