import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { verifyAudit } from "../../server/flows/auditVerify.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { REPORT_CHANNELS } from "../../server/seed/reports.ts";
import type { ChannelOption, ReportInput } from "../../src/api/reportBuilder.ts";
import { ACTION_NAMES } from "../../src/domain/auditText.ts";
import { browser, type Browser } from "./client.ts";
import { signedIn } from "./deviceTestKit.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

// What the audit trail records of reports (issue 37, the rest of it): the builder's changes with
// the old and new values of what changed, their public links by state, members' downloads, chart
// comments and mail schedules; never a link's token.

type Row = {
  action: string;
  actor_kind: string;
  actor_label: string;
  entity_id: string | null;
  device_id: number | null;
  old: Record<string, unknown> | null;
  new: Record<string, unknown> | null;
};
const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);
const WEEK = 7 * 86_400;

describe("what the audit trail records of reports", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const trail = () =>
    rows<Row>(
      db(),
      sql`select action, actor_kind, actor_label, entity_id, device_id, old, new from audit_log
          where action not like 'session.%' order by at desc, id desc`,
    );
  const newest = async () => (await trail())[0]!;
  const ok = async (res: Response | Promise<Response>) => {
    const r = await res;
    expect(r.status, await r.clone().text()).toBeLessThan(300);
    return (await r.json()).data;
  };
  const admin = () => signedIn(ctx, "admin@example.com");
  const input = async (b: Browser): Promise<ReportInput> => {
    const options = (await ok(b.get("/api/v1/report-channels"))) as ChannelOption[];
    const [a, c] = options.filter((o) => o.kind === "temperature");
    return {
      name: "Freezer audit",
      mktActivationEnergy: 83.144,
      timeInterval: WEEK,
      startDate: null,
      endDate: null,
      channels: [
        { channelId: c!.channelId, color: "#445566", axis: 1 },
        { channelId: a!.channelId, color: "#112233", axis: 0 },
      ],
      thresholds: [
        { name: "Too warm", channelId: a!.channelId, minValue: 8, maxValue: null, color: "#ff0000" },
      ],
    };
  };
  const allText = async () =>
    (await rows<{ t: string }>(db(), sql`select row_to_json(l)::text as t from audit_log l`))
      .map((r) => r.t)
      .join("\n");

  it("records a report's creation, the settings and ranges a change changed, and its deletion", async () => {
    const b = await admin();
    const made = await input(b);
    const { id } = await ok(b.json("/api/v1/reports", made));
    const [a, c] = [made.channels[1]!.channelId, made.channels[0]!.channelId];
    const range = (min: number) => `Too warm: min ${min}, max none, channel ${a}, #ff0000`;
    expect(await newest()).toEqual({
      action: "report.create",
      actor_kind: "user",
      actor_label: "admin@example.com",
      entity_id: String(id),
      device_id: null,
      old: null,
      new: {
        name: "Freezer audit",
        timeInterval: WEEK,
        startDate: null,
        endDate: null,
        // As stored: left axis first.
        channels: [`channel ${a}, #112233, left axis`, `channel ${c}, #445566, right axis`],
        thresholds: [range(8)],
        mktActivationEnergy: 83.144,
      },
    });
    const changed = {
      ...made,
      name: "Freezer audit 2",
      mktActivationEnergy: 90,
      thresholds: [{ ...made.thresholds[0]!, minValue: 7 }],
    };
    await ok(b.json(`/api/v1/reports/${id}`, changed, "PATCH"));
    expect(await newest()).toMatchObject({
      action: "report.change",
      entity_id: String(id),
      old: { name: "Freezer audit", mktActivationEnergy: 83.144, thresholds: [range(8)] },
      new: { name: "Freezer audit 2", mktActivationEnergy: 90, thresholds: [range(7)] },
    });
    // Saving the same settings again changes nothing: no row (the ranges' new ids do not count).
    const count = (await trail()).length;
    await ok(b.json(`/api/v1/reports/${id}`, changed, "PATCH"));
    expect(await trail()).toHaveLength(count);
    const fixed = { ...changed, timeInterval: 0, startDate: NOW_S - WEEK, endDate: NOW_S };
    await ok(b.json(`/api/v1/reports/${id}`, fixed, "PATCH"));
    // The unchanged name stays on the row to name the report in the viewer (shown as no change).
    expect((await newest()).new).toEqual({
      name: "Freezer audit 2",
      timeInterval: 0,
      startDate: new Date((NOW_S - WEEK) * 1000).toISOString(),
      endDate: TEST_NOW.toISOString(),
    });
    await ok(b.delete(`/api/v1/reports/${id}`));
    const gone = await newest();
    expect(gone).toMatchObject({ action: "report.delete", entity_id: String(id), new: null });
    expect(gone.old).toMatchObject({ name: "Freezer audit 2", thresholds: [range(7)] });
    expect(ACTION_NAMES["report.change"]).toBe("Changed a report");
    expect((await verifyAudit(db())).faults).toEqual([]);
  });

  it("records a public link by its state, pause and expiry, and never its token", async () => {
    const b = await admin();
    const { id } = await ok(b.json("/api/v1/reports", await input(b)));
    const expiresAt = NOW_S + WEEK;
    const first = await ok(b.json(`/api/v1/reports/${id}/public-link`, { expiresAt }));
    expect(await newest()).toMatchObject({
      action: "report.link.create",
      old: { publicLink: "off", expiresAt: null },
      new: { publicLink: "on", expiresAt: new Date(expiresAt * 1000).toISOString() },
    });
    const second = await ok(b.json(`/api/v1/reports/${id}/public-link`, { expiresAt }));
    expect(await newest()).toMatchObject({
      action: "report.link.replace",
      old: { publicLink: "on" },
      new: { publicLink: "replaced" },
    });
    await ok(b.json(`/api/v1/reports/${id}/public-link`, { paused: true }, "PATCH"));
    expect(await newest()).toMatchObject({
      action: "report.link.change",
      old: { paused: false },
      new: { paused: true },
    });
    await ok(b.delete(`/api/v1/reports/${id}/public-link`));
    expect(await newest()).toMatchObject({
      action: "report.link.delete",
      old: { publicLink: "on", paused: true, expiresAt: new Date(expiresAt * 1000).toISOString() },
      new: { publicLink: "off", paused: false, expiresAt: null },
    });
    const text = await allText();
    for (const hash of [first.link.publicHash, second.link.publicHash, DEMO.reportHash])
      expect(text).not.toContain(hash);
  });

  it("records the public report's two switches: alarm notes shown and visitors' subscriptions", async () => {
    const b = await admin();
    const { id } = await ok(b.json("/api/v1/reports", await input(b)));
    await ok(b.json(`/api/v1/reports/${id}/alarm-notes`, { show: true }, "PATCH"));
    expect(await newest()).toMatchObject({
      action: "report.change",
      entity_id: String(id),
      old: { showAlarmNotes: false },
      new: { showAlarmNotes: true },
    });
    await ok(b.json(`/api/v1/reports/${id}/visitors`, { visitorsMaySubscribe: false }, "PATCH"));
    expect(await newest()).toMatchObject({
      action: "report.change",
      old: { visitorsMaySubscribe: true },
      new: { visitorsMaySubscribe: false },
    });
  });

  it("records a member's CSV and PDF downloads of a shared report, not a visitor's or an outsider's", async () => {
    const [demo] = await rows<{ id: number }>(
      db(),
      sql`select id from reports where public_hash = ${DEMO.reportHash}`,
    );
    const csv = `/api/v1/device-data/public/samples/csv?publicHash=${DEMO.reportHash}`;
    const pdf = `/public/report-pdf/?reportPublicLinkHash=${DEMO.reportHash}&timezone=UTC`;
    const b = await admin();
    expect((await b.get(csv)).status).toBe(200);
    const row = await newest();
    expect(row).toMatchObject({
      action: "report.export",
      actor_label: "admin@example.com",
      entity_id: String(demo!.id),
      old: null,
    });
    expect(row.new).toMatchObject({ format: "csv", to: TEST_NOW.toISOString() });
    expect((await b.get(pdf)).status).toBe(200);
    expect((await newest()).new).toMatchObject({ format: "pdf" });
    const count = (await trail()).length;
    expect((await browser(ctx.app).get(csv)).status).toBe(200);
    const outsider = await signedIn(ctx, "owner@northwind.example.com");
    expect((await outsider.get(pdf)).status).toBe(200);
    expect(await trail()).toHaveLength(count);
  });

  it("records a chart comment pinned and deleted, with its channel, time and text", async () => {
    const b = await admin();
    const key = REPORT_CHANNELS[0]!.key;
    const comment = await ok(
      b.json("/api/v1/chart-comments", { channelKey: key, at: NOW_S - 60, text: "Door open" }),
    );
    const values = { channel: key, at: new Date((NOW_S - 60) * 1000).toISOString(), text: "Door open" };
    const pinned = await newest();
    expect(pinned).toMatchObject({
      action: "chart.comment.create",
      entity_id: String(comment.id),
      old: null,
      new: values,
    });
    expect(pinned.device_id).toEqual(expect.any(Number));
    await ok(b.delete(`/api/v1/chart-comments/${comment.id}`));
    expect(await newest()).toMatchObject({
      action: "chart.comment.delete",
      entity_id: String(comment.id),
      device_id: pinned.device_id,
      old: values,
      new: null,
    });
  });

  it("records a mail schedule's creation, change and deletion with its recipients by address", async () => {
    const b = await admin();
    const { id: reportId } = await ok(b.json("/api/v1/reports", await input(b)));
    const [me] = await rows<{ id: number }>(
      db(),
      sql`select id from users where email = 'admin@example.com'`,
    );
    const schedule = {
      cadence: "weekly",
      hour: 7,
      weekday: 1,
      timeZone: "America/New_York",
      scale: "F",
      format: "pdf",
      userIds: [me!.id],
      emails: ["plant@example.net"],
    };
    const made = await ok(b.json(`/api/v1/reports/${reportId}/schedules`, schedule));
    const values = {
      report: reportId,
      cadence: "weekly",
      hour: 7,
      weekday: 1,
      timeZone: "America/New_York",
      scale: "F",
      format: "pdf",
      members: ["admin@example.com"],
      emails: ["plant@example.net"],
      paused: false,
    };
    expect(await newest()).toMatchObject({
      action: "report.schedule.create",
      entity_id: String(made.id),
      old: null,
      new: values,
    });
    await ok(
      b.json(
        `/api/v1/report-schedules/${made.id}`,
        { ...schedule, format: "both", userIds: [], timeZone: "UTC" },
        "PATCH",
      ),
    );
    expect(await newest()).toMatchObject({
      action: "report.schedule.change",
      old: { format: "pdf", members: ["admin@example.com"], timeZone: "America/New_York" },
      new: { format: "both", members: [], timeZone: "UTC" },
    });
    expect(Object.keys((await newest()).new!).sort()).toEqual(["format", "members", "name", "timeZone"]);
    await ok(b.delete(`/api/v1/report-schedules/${made.id}`));
    expect(await newest()).toMatchObject({
      action: "report.schedule.delete",
      old: { ...values, format: "both", members: [], timeZone: "UTC" },
      new: null,
    });
    expect((await verifyAudit(db())).faults).toEqual([]);
  });
});
