import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { outboxStore } from "../../server/data/outbox.ts";
import { alertTask } from "../../server/flows/alertWork.ts";
import { createMailer } from "../../server/services/mail.ts";
import {
  LOW_BELOW_HIGH,
  NEEDS_HIGH,
  NO_SUCH_DEVICE,
  NO_SUCH_TAG,
  NOT_A_MEMBER,
} from "../../server/flows/ruleInput.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW } from "./helpers.ts";
import { COLD_HUM, COLD_TEMP, MAC, NOW_S, useIngestApp } from "./ingestKit.ts";

const at = (minutes: number) => new Date(TEST_NOW.getTime() + minutes * 60_000);

describe("alert rules", () => {
  const { ctx, push } = useIngestApp();
  const db = () => ctx.database.db;
  const admin = async () => {
    const b = browser(ctx.app);
    await signIn(b, "admin@example.com");
    return b;
  };
  const tick = (when: Date) =>
    alertTask({
      db: db(),
      mailer: createMailer(outboxStore(db()), undefined, () => when),
      origin: "http://portal.test",
      webhookPrivate: "deny",
    })(when);
  const rule = async (body: Record<string, unknown>) => (await admin()).json("/api/v1/alerts/rules", body);
  const reading = (channelKey: string, value: number, offset = 0) =>
    push({ macAddress: MAC, readings: [{ channelKey, value, time: NOW_S + offset }] });
  const mail = () =>
    rows<{ to: string; subject: string; text: string }>(
      db(),
      sql`select "to", subject, text from outbox order by id`,
    );
  const open = () =>
    rows<{ kind: string; state: string; subject_kind: string }>(
      db(),
      sql`select kind, state, subject_kind from alarms where state <> 'cleared' order by id`,
    );
  const labDevice = async () =>
    (await rows<{ id: number }>(db(), sql`select id from devices where mac_address = ${MAC}`))[0]!.id;
  const warm = { channelKey: COLD_TEMP, condition: { type: "above", high: 8, scale: "C" } };

  it("triggers only after the readings in a row it asks for, and starts counting again after one inside", async () => {
    await rule({ name: "Three in a row", ...warm, delayReadings: 3, notify: { emails: ["a@example.net"] } });
    await reading(COLD_TEMP, 9, -30);
    await reading(COLD_TEMP, 9, -20);
    await reading(COLD_TEMP, 7, -10);
    await reading(COLD_TEMP, 9, 0);
    await reading(COLD_TEMP, 9, 10);
    expect((await open()).map((a) => a.state)).toEqual(["pending"]);
    await reading(COLD_TEMP, 9, 20);
    expect((await open()).map((a) => a.state)).toEqual(["triggered"]);
  });

  it("converts thresholds typed in °F exactly as the sensor settings do, adjustments applied", async () => {
    // 46.4 °F is 8 °C; the channel reads 0.5 °C high, so 7.6 raw is 8.1 adjusted.
    await db().execute(sql`update channels set adjust = 0.5 where channel_key = ${COLD_TEMP}`);
    const made = await rule({
      name: "In F",
      channelKey: COLD_TEMP,
      condition: { type: "above", high: 46.4, scale: "F" },
      notify: {},
    });
    expect((await made.json()).data.condition).toMatchObject({ high: 46.4, scale: "F" });
    await reading(COLD_TEMP, 7.4, 0);
    expect(await open()).toEqual([]);
    await reading(COLD_TEMP, 7.6, 10);
    expect((await open()).map((a) => a.state)).toEqual(["triggered"]);
  });

  it("watches a tag's devices for channels of one kind", async () => {
    const b = await admin();
    const sub = (
      await rows<{ id: number }>(db(), sql`select id from subscriptions where name = 'Acme Labs'`)
    )[0]!.id;
    const tag = await b.json("/api/v1/tags", {
      subscriptionId: sub,
      tag: { name: "Cold chain", deviceTagList: [await labDevice()] },
    });
    const tagId = (await tag.json()).data.id;
    const made = await rule({
      name: "Cold chain warm",
      tagId,
      channelKind: "temperature",
      condition: { type: "above", high: 8, scale: "C" },
      notify: {},
    });
    expect((await made.json()).data.watches).toBe("Devices tagged Cold chain (temperature)");
    await reading(COLD_HUM, 95, 0);
    expect(await open()).toEqual([]);
    await reading(COLD_TEMP, 9, 10);
    expect((await open()).map((a) => a.subject_kind)).toEqual(["channel"]);
  });

  it("raises low-battery alarms for sensors at 30 % or below that are not plugged in", async () => {
    await rule({
      name: "Batteries",
      deviceId: await labDevice(),
      condition: { type: "battery" },
      notify: {},
    });
    await tick(TEST_NOW);
    const low = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from sensors s join devices d on d.id = s.device_id
          where d.mac_address = ${MAC} and s.battery <= 30 and not s.plugged_in`,
    );
    expect(low[0]!.n).toBeGreaterThan(0);
    expect((await open()).filter((a) => a.kind === "battery")).toHaveLength(low[0]!.n);
  });

  it("raises a stale alarm for each sensor silent for two hours", async () => {
    await rule({ name: "Stale", deviceId: await labDevice(), condition: { type: "stale" }, notify: {} });
    await tick(TEST_NOW);
    const stale = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from sensors s join devices d on d.id = s.device_id
          where d.mac_address = ${MAC} and s.last_received_at < ${at(-120)}`,
    );
    expect(stale[0]!.n).toBeGreaterThan(0);
    expect((await open()).filter((a) => a.kind === "stale")).toHaveLength(stale[0]!.n);
  });

  it("sends one digest instead of a storm when many alarms reach one person at once", async () => {
    for (let i = 0; i < 5; i++)
      await rule({ name: `Storm ${i}`, ...warm, notify: { emails: ["oncall@example.net"] } });
    await reading(COLD_TEMP, 9);
    await tick(TEST_NOW);
    const sent = await mail();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe("[ALARMS] 5 alarm notices");
    expect(sent[0]!.text.match(/\[ALARM\] Storm/g)).toHaveLength(5);
  });

  it("holds a warning until quiet hours end, but not a critical alarm", async () => {
    const quietHours = { from: "11:00", to: "13:00", timeZone: "UTC" };
    await rule({ name: "Quiet warning", ...warm, quietHours, notify: { emails: ["w@example.net"] } });
    await rule({
      name: "Loud critical",
      ...warm,
      severity: "critical",
      quietHours,
      notify: { emails: ["c@example.net"] },
    });
    await reading(COLD_TEMP, 9);
    await tick(TEST_NOW);
    expect((await mail()).map((m) => m.to)).toEqual(["c@example.net"]);
    await tick(at(59));
    expect(await mail()).toHaveLength(1);
    await tick(at(60));
    expect((await mail()).map((m) => m.to)).toEqual(["c@example.net", "w@example.net"]);
  });

  it("keeps a muted device's alarms but tells nobody", async () => {
    const b = await admin();
    expect((await b.json(`/api/v1/alerts/devices/${await labDevice()}/mute`, { minutes: 60 })).status).toBe(
      200,
    );
    await rule({ name: "Muted", ...warm, notify: { emails: ["m@example.net"] } });
    await reading(COLD_TEMP, 9);
    await tick(TEST_NOW);
    expect((await open()).map((a) => a.state)).toEqual(["triggered"]);
    expect(await mail()).toEqual([]);
  });

  it("clears a paused rule's alarms without a message, and a deleted rule's likewise", async () => {
    const made = (
      await (await rule({ name: "Pausable", ...warm, notify: { emails: ["p@example.net"] } })).json()
    ).data;
    await reading(COLD_TEMP, 9);
    await tick(TEST_NOW);
    const b = await admin();
    const paused = await b.json(`/api/v1/alerts/rules/${made.id}`, { paused: true }, "PATCH");
    expect((await paused.json()).data).toMatchObject({
      paused: true,
      name: "Pausable",
      condition: { high: 8 },
    });
    expect(await open()).toEqual([]);
    await tick(at(1));
    expect((await mail()).map((m) => m.subject.split("]")[0])).toEqual(["[ALARM"]);
    expect((await b.delete(`/api/v1/alerts/rules/${made.id}`)).status).toBe(200);
    expect((await b.get("/api/v1/alerts/rules")).status).toBe(200);
  });

  it("says which field is wrong: a missing limit, crossed limits, another subscription's ids", async () => {
    const errors = async (body: Record<string, unknown>) => (await (await rule(body)).json()).data;
    expect(
      await errors({ name: "x", channelKey: COLD_TEMP, condition: { type: "above" }, notify: {} }),
    ).toEqual([{ field: "condition.high", message: NEEDS_HIGH }]);
    expect(
      await errors({
        name: "x",
        channelKey: COLD_TEMP,
        condition: { type: "outside", low: 5, high: 2 },
        notify: {},
      }),
    ).toEqual([{ field: "condition.low", message: LOW_BELOW_HIGH }]);
    const northwind = await rows<{ device: number; tag: number | null; user: number }>(
      db(),
      sql`select (select d.id from devices d join subscriptions s on s.id = d.subscription_id where s.name like 'Northwind%' limit 1) as device,
          (select t.id from tags t join subscriptions s on s.id = t.subscription_id where s.name like 'Northwind%' limit 1) as tag,
          (select id from users where email = 'owner@northwind.example.com') as user`,
    );
    const { device, user } = northwind[0]!;
    expect(await errors({ name: "x", deviceId: device, condition: { type: "offline" }, notify: {} })).toEqual(
      [{ field: "deviceId", message: NO_SUCH_DEVICE }],
    );
    expect(await errors({ name: "x", ...warm, notify: { userIds: [user] } })).toEqual([
      { field: "notify.userIds.0", message: NOT_A_MEMBER },
    ]);
    if (northwind[0]!.tag)
      expect(await errors({ name: "x", ...warm, notify: {}, tagIds: [northwind[0]!.tag] })).toEqual([
        { field: "tagIds.0", message: NO_SUCH_TAG },
      ]);
  });
});
