import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { channels, devices, reports } from "../../server/db/schema/index.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { REPORT_CHANNELS } from "../../server/seed/reports.ts";
import { pdfText } from "../support/pdfText.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";
import { subscriptionId } from "./ownership.ts";

const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);
const LAB_TEMP = REPORT_CHANNELS[0]!.key;
const NOTE = "Compressor restarted by the technician";
const COMMENT = "door open for delivery";
const ADMIN = "Ada Admin (admin@example.com)";

describe("the alarm story on the charts", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const get = (path: string) => ctx.app.request(`http://localhost${path}`);
  const as = async (email: string) => {
    const b = browser(ctx.app);
    await signIn(b, email);
    return b;
  };
  const ids = async () => {
    const [ch] = await db().select().from(channels).where(eq(channels.channelKey, LAB_TEMP));
    const [report] = await db().select().from(reports).where(eq(reports.publicHash, DEMO.reportHash));
    return { channelId: ch!.id, report: report! };
  };
  /** An alarm as the alert flows leave it: triggered, acknowledged with a note, cleared. */
  const alarm = async (o: {
    subscription: number;
    channelId: number | null;
    rule: string;
    ack?: boolean;
  }) => {
    const [dev] = await db().select().from(devices).where(eq(devices.macAddress, "00:1A:2B:3C:4D:01"));
    const at = (s: number) => new Date((NOW_S - s) * 1000);
    const [row] = await rows<{ id: number }>(
      db(),
      sql`insert into alarms (subscription_id, rule_name, kind, severity, subject_kind, subject_id, device_id,
            channel_id, state, value, limit_value, since, triggered_at, acknowledged_at, acknowledged_by, cleared_at)
          values (${o.subscription}, ${o.rule}, ${o.channelId ? "above" : "offline"}, 'warning',
            ${o.channelId ? "channel" : "device"}, ${o.channelId ?? dev!.id}, ${dev!.id}, ${o.channelId}, 'cleared',
            9.2, 8, ${at(3600)}, ${at(3600)}, ${o.ack ? at(3000) : null}, ${o.ack ? ADMIN : null}, ${at(1800)})
          returning id`,
    );
    if (o.ack)
      await db().execute(
        sql`insert into alarm_events (alarm_id, kind, at, by_user, note) values (${row!.id}, 'acknowledged', ${at(3000)}, ${ADMIN}, ${NOTE})`,
      );
    return row!.id;
  };
  const marksPath = `/api/v1/device-data/public/report/marks/${DEMO.reportHash}`;

  it("shows a shared report's alarms and device alarms, and never another subscription's", async () => {
    const { channelId, report } = await ids();
    const northwind = await subscriptionId(db(), "Northwind");
    await alarm({ subscription: report.subscriptionId, channelId, rule: "Lab fridge warm", ack: true });
    await alarm({ subscription: report.subscriptionId, channelId: null, rule: "Lab silent" });
    await alarm({ subscription: northwind, channelId, rule: "Their old fridge rule", ack: true });
    const res = await get(marksPath);
    expect(res.status).toBe(200);
    const { alarms } = (await res.json()).data;
    expect(alarms.map((a: { rule: string; channelKey: string | null }) => [a.rule, a.channelKey])).toEqual([
      // Rule names are the members' own words: a public answer gives the rule's kind.
      ["above limit", LAB_TEMP],
      ["device silent", null],
    ]);
    expect(alarms[0]).toMatchObject({
      triggeredAt: NOW_S - 3600,
      acknowledgedAt: NOW_S - 3000,
      clearedAt: NOW_S - 1800,
    });
  });

  it("keeps notes and names off the public answer, picture and PDF until the owner shows them", async () => {
    const { channelId, report } = await ids();
    await alarm({ subscription: report.subscriptionId, channelId, rule: "Lab fridge warm", ack: true });
    const admin = await as("admin@example.com");
    const made = await admin.json("/api/v1/chart-comments", {
      channelKey: LAB_TEMP,
      at: NOW_S - 600,
      text: COMMENT,
    });
    expect(made.status).toBe(200);
    const svgPath = `/public/report-svg/${DEMO.reportHash}`;
    const pdfPath = `/public/report-pdf/?reportPublicLinkHash=${DEMO.reportHash}`;
    const told = async () => [
      await (await get(marksPath)).text(),
      await (await get(svgPath)).text(),
      pdfText(Buffer.from(await (await get(pdfPath)).arrayBuffer())),
    ];
    const [json, ...drawn] = await told();
    expect(json).toContain(`"acknowledgedAt":${NOW_S - 3000}`);
    for (const text of drawn) expect(text).toContain("Acknowledged");
    for (const text of [json!, ...drawn]) {
      expect(text).toContain(COMMENT);
      expect(text).not.toContain(NOTE.slice(0, 20));
      expect(text).not.toContain("Ada");
      expect(text).not.toContain("Lab fridge warm");
    }
    const shown = await admin.json(`/api/v1/reports/${report.id}/alarm-notes`, { show: true }, "PATCH");
    expect((await shown.json()).data).toEqual({ show: true });
    // The picture cache and the answer cache are keyed on what they show; a new app reads afresh.
    for (const text of await told()) {
      expect(text).toContain(NOTE.slice(0, 20));
      expect(text).toContain("Ada Admin");
      expect(text).toContain("Lab fridge warm");
      // A public page names people; it does not give their addresses.
      expect(text).not.toContain("admin@example.com");
    }
  });

  it("gives a signed-in reader the channel's alarms with notes and names", async () => {
    const { channelId, report } = await ids();
    await alarm({ subscription: report.subscriptionId, channelId, rule: "Lab fridge warm", ack: true });
    const viewer = await as("viewer@example.com");
    const res = await viewer.get(`/api/v1/chart-marks/${encodeURIComponent(LAB_TEMP)}`);
    const { alarms } = (await res.json()).data;
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ note: NOTE, acknowledgedBy: ADMIN, value: 9.2, limit: 8 });
  });

  it("lets Administrators and Managers pin and delete comments, and nobody else", async () => {
    const manager = await as("manager@example.com");
    const body = { channelKey: LAB_TEMP, at: NOW_S - 60, text: `  ${COMMENT}  ` };
    const made = await manager.json("/api/v1/chart-comments", body);
    const comment = (await made.json()).data;
    expect(comment).toMatchObject({ channelKey: LAB_TEMP, at: NOW_S - 60, text: COMMENT });
    const viewer = await as("viewer@example.com");
    expect((await viewer.json("/api/v1/chart-comments", body)).status).toBe(403);
    expect((await viewer.delete(`/api/v1/chart-comments/${comment.id}`)).status).toBe(403);
    const listed = await viewer.get(`/api/v1/chart-marks/${encodeURIComponent(LAB_TEMP)}`);
    expect((await listed.json()).data.comments).toEqual([{ ...comment }]);
    const other = await as("owner@northwind.example.com");
    expect((await other.delete(`/api/v1/chart-comments/${comment.id}`)).status).toBe(404);
    expect((await other.json("/api/v1/chart-comments", body)).status).toBe(404);
    expect((await manager.delete(`/api/v1/chart-comments/${comment.id}`)).status).toBe(200);
    expect((await manager.delete(`/api/v1/chart-comments/${comment.id}`)).status).toBe(404);
  });

  it.each([
    [{ channelKey: LAB_TEMP, at: NOW_S, text: "" }, "text", "Write a comment."],
    [
      { channelKey: LAB_TEMP, at: NOW_S, text: "x".repeat(281) },
      "text",
      "Comments are at most 280 characters.",
    ],
    [{ channelKey: LAB_TEMP, at: "noon", text: "hi" }, "at", "Choose a time on the chart."],
    [{ channelKey: "nope", at: NOW_S, text: "hi" }, "channelKey", undefined],
  ])("refuses a bad comment with a clear 400 (%#)", async (body, field, message) => {
    const admin = await as("admin@example.com");
    const res = await admin.json("/api/v1/chart-comments", body);
    expect(res.status).toBe(400);
    const errors = (await res.json()).data as { field: string; message: string }[];
    expect(errors.map((e) => e.field)).toContain(field);
    if (message) expect(errors.map((e) => e.message)).toContain(message);
  });
});
