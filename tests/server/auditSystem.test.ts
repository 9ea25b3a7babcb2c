import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../server/core/crypto.ts";
import { rows } from "../../server/db/client.ts";
import { outboxStore } from "../../server/data/outbox.ts";
import { verifyAudit } from "../../server/flows/auditVerify.ts";
import { alertTask } from "../../server/flows/alertWork.ts";
import { reportScheduleTask } from "../../server/flows/reportSchedules.ts";
import { createMailer } from "../../server/services/mail.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { RETRY_FOR_MS } from "../../src/domain/alerts.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW } from "./helpers.ts";
import { COLD_TEMP, MAC, NOW_S, useIngestApp } from "./ingestKit.ts";
import { addSchedule, adminReport, refusingSmtp } from "./reportSchedulesKit.ts";

// The audit rows no signed-in person writes (issue 37): the report scheduler's runs and give-ups
// and the alert scheduler's repeats and escalations as "system", the one-click unsubscribe as the
// emailed link's recipient, and visitors' confirmed subscriptions by a masked address. No row
// holds a link's token or its hash.

type Row = {
  action: string;
  actor_kind: string;
  actor_label: string;
  entity_id: string | null;
  old: Record<string, unknown> | null;
  new: Record<string, unknown> | null;
};
const RUN = new Date("2026-11-23T09:00:30Z");

describe("the audit rows of the schedulers, emailed links and visitors", () => {
  const { ctx, push } = useIngestApp();
  const db = () => ctx.database.db;
  const trail = (like: string) =>
    rows<Row>(
      db(),
      sql`select action, actor_kind, actor_label, entity_id, old, new from audit_log
          where action like ${like} order by id`,
    );
  const allText = async () =>
    (await rows<{ t: string }>(db(), sql`select row_to_json(l)::text as t from audit_log l`))
      .map((r) => r.t)
      .join("\n");
  const outbox = () =>
    rows<{ to: string; text: string }>(db(), sql`select "to", text from outbox order by id`);
  const schedules = (smtpUrl: string | undefined, at: Date) =>
    reportScheduleTask({
      db: db(),
      mailer: createMailer(outboxStore(db()), smtpUrl, () => at),
      origin: "http://localhost",
    })(at);

  it("records a scheduled run once when its last delivery is settled, however many attempts it took", async () => {
    const smtp = await refusingSmtp(1);
    try {
      const base = await adminReport(db());
      const s = await addSchedule(
        db(),
        base,
        {
          cadence: "daily",
          hour: 9,
          timeZone: "UTC",
          format: "both",
          emails: ["a@example.net", "b@example.net"],
        },
        TEST_NOW,
      );
      await schedules(smtp.url, RUN);
      // One message refused and waiting for its retry: the run is not over, nothing recorded yet.
      expect(await trail("report.schedule.%")).toEqual([]);
      await schedules(smtp.url, new Date(RUN.getTime() + 31_000));
      expect(await trail("report.schedule.%")).toEqual([
        {
          action: "report.schedule.sent",
          actor_kind: "system",
          actor_label: "report scheduler",
          entity_id: String(s.id),
          old: null,
          new: { addresses: 2, failed: 0, formats: ["csv", "pdf"], period: "Yesterday, Nov 22, 2026" },
        },
      ]);
      expect((await verifyAudit(db())).faults).toEqual([]);
    } finally {
      smtp.close();
    }
  });

  it("records a delivery given up after its retries once, with its address and last error", async () => {
    const smtp = await refusingSmtp(1_000);
    try {
      const s = await addSchedule(
        db(),
        await adminReport(db()),
        { cadence: "daily", hour: 9, timeZone: "UTC", emails: ["gone@example.net"] },
        TEST_NOW,
      );
      await schedules(smtp.url, RUN);
      await schedules(smtp.url, new Date(RUN.getTime() + 31_000));
      await schedules(smtp.url, new Date(RUN.getTime() + RETRY_FOR_MS + 1000));
      const rowsOf = await trail("report.schedule.%");
      expect(rowsOf).toHaveLength(1);
      expect(rowsOf[0]).toMatchObject({
        action: "report.schedule.failed",
        actor_kind: "system",
        entity_id: String(s.id),
        new: { recipient: "gone@example.net", period: "Yesterday, Nov 22, 2026", attempts: 3 },
      });
      expect(rowsOf[0]!.new!["error"]).toContain("Mailbox busy");
    } finally {
      smtp.close();
    }
  });

  it("records the one-click unsubscribe as the link's recipient, never its token", async () => {
    const s = await addSchedule(
      db(),
      await adminReport(db()),
      { cadence: "daily", hour: 9, timeZone: "UTC", emails: ["a@example.net", "b@example.net"] },
      TEST_NOW,
    );
    await schedules(undefined, RUN);
    const mail = (await outbox()).find((m) => m.to === "b@example.net")!;
    const token = /report-unsubscribe\?token=([\w-]+)/.exec(mail.text)![1]!;
    const oneClick = () =>
      ctx.app.request(`http://localhost/report-unsubscribe?token=${token}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
    expect((await oneClick()).status).toBe(200);
    // Twice changes nothing more: no second row.
    expect((await oneClick()).status).toBe(200);
    expect(await trail("report.schedule.unsubscribe")).toEqual([
      {
        action: "report.schedule.unsubscribe",
        actor_kind: "mail-link",
        actor_label: "b@example.net",
        entity_id: String(s.id),
        // The report's name names the schedule in the viewer (unchanged, shown as no change).
        old: { name: "Lab Climate — Last 24 Hours", emails: ["a@example.net", "b@example.net"] },
        new: { name: "Lab Climate — Last 24 Hours", emails: ["a@example.net"] },
      },
    ]);
    const text = await allText();
    expect(text).not.toContain(token);
    expect(text).not.toContain(sha256(token));
  });

  it("records a visitor's confirmed subscription and its end by a masked address, and no pending one", async () => {
    const [demo] = await rows<{ id: number }>(
      db(),
      sql`select id from reports where public_hash = ${DEMO.reportHash}`,
    );
    const report = String(demo!.id);
    const visitor = browser(ctx.app);
    const subscribe = () =>
      visitor.json(`/api/v1/device-data/public/report/${DEMO.reportHash}/subscriptions`, {
        email: "jane.doe@example.net",
      });
    const tokenIn = (page: string) =>
      outbox().then((m) => new RegExp(`/visitors/${page}\\?token=([\\w-]+)`).exec(m.at(-1)!.text)![1]!);
    expect((await subscribe()).status).toBe(200);
    expect(await trail("report.visitor.%")).toEqual([]);
    const confirm = await tokenIn("confirm");
    expect((await visitor.json("/api/v1/visitor-subscriptions/confirm", { token: confirm })).status).toBe(
      200,
    );
    // Subscribing again mails a note with an unsubscribe link.
    expect((await subscribe()).status).toBe(200);
    const stop = await tokenIn("unsubscribe");
    expect((await visitor.json("/api/v1/visitor-subscriptions/unsubscribe", { token: stop })).status).toBe(
      200,
    );
    const visitorRow = { actor_kind: "visitor", actor_label: "j***@example.net" };
    expect(await trail("report.visitor.%")).toEqual([
      {
        action: "report.visitor.confirm",
        ...visitorRow,
        entity_id: report,
        old: { state: "pending" },
        new: { state: "confirmed" },
      },
      {
        action: "report.visitor.unsubscribe",
        ...visitorRow,
        entity_id: report,
        old: { state: "confirmed" },
        new: null,
      },
    ]);
    const text = await allText();
    for (const secret of ["jane.doe", confirm, stop, sha256(confirm), sha256(stop), DEMO.reportHash])
      expect(text).not.toContain(secret);
  });

  it("records the alert scheduler's repeat and escalation of an unacknowledged alarm as the system", async () => {
    const admin = browser(ctx.app);
    await signIn(admin, "admin@example.com");
    const made = await admin.json("/api/v1/alerts/rules", {
      name: "Cold room warm",
      channelKey: COLD_TEMP,
      condition: { type: "above", high: 8, scale: "C" },
      notify: { emails: ["oncall@example.net"] },
      repeatMinutes: 10,
      escalation: [{ afterMinutes: 15, emails: ["boss@example.net"] }],
    });
    expect(made.status, await made.clone().text()).toBe(200);
    const pushed = await push({
      macAddress: MAC,
      readings: [{ channelKey: COLD_TEMP, value: 9, time: NOW_S }],
    });
    expect(pushed.status).toBe(200);
    const tick = (minutes: number) => {
      const at = new Date(TEST_NOW.getTime() + minutes * 60_000);
      return alertTask({
        db: db(),
        mailer: createMailer(outboxStore(db()), undefined, () => at),
        origin: "http://localhost",
        webhookPrivate: "loopback",
      })(at);
    };
    await tick(0);
    const moves = async () => (await trail("alert.%")).filter((r) => !r.action.startsWith("alert.rule."));
    // The reading opened the alarm: data, not a change by anyone.
    expect(await moves()).toEqual([]);
    await tick(10);
    await tick(15);
    expect((await moves()).map((r) => [r.action, r.actor_kind, r.actor_label, r.old, r.new])).toEqual([
      // The rule's name names the alarm in the viewer (unchanged, it is shown as no change).
      [
        "alert.repeat",
        "system",
        "alert scheduler",
        { name: "Cold room warm", notices: 1 },
        { name: "Cold room warm", notices: 2 },
      ],
      [
        "alert.escalate",
        "system",
        "alert scheduler",
        { name: "Cold room warm", escalationLevel: 0 },
        { name: "Cold room warm", escalationLevel: 1 },
      ],
    ]);
    expect((await verifyAudit(db())).faults).toEqual([]);
  });
});
