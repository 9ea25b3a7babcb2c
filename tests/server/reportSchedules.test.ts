import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { outboxStore } from "../../server/data/outbox.ts";
import { reportScheduleTask } from "../../server/flows/reportSchedules.ts";
import { createMailer } from "../../server/services/mail.ts";
import { useTestApp } from "./helpers.ts";
import { addSchedule, adminReport, refusingSmtp } from "./reportSchedulesKit.ts";

const HOUR = 3_600_000;
const ORIGIN = "http://portal.test";

describe("scheduled reports", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const task = (smtpUrl?: string, clock = () => new Date()) =>
    reportScheduleTask({ db: db(), mailer: createMailer(outboxStore(db()), smtpUrl, clock), origin: ORIGIN });
  const sent = () =>
    rows<{ scheduleId: number; runAt: Date; recipient: string; state: string; attempts: number }>(
      db(),
      sql`select schedule_id as "scheduleId", run_at as "runAt", recipient, state, attempts
          from report_deliveries order by run_at, id`,
    );

  it("sends at the local hour across the spring and autumn changes in three zones, once each", async () => {
    const base = await adminReport(db());
    // [zone, window of three days, the sends expected in it (UTC)] for a daily send at 02:00.
    const windows: [string, string, string[]][] = [
      // 02:00 CET, the missing 02:00 at 03:00 CEST, 02:00 CEST.
      ["Europe/Berlin", "2026-03-28", ["2026-03-28T01:00", "2026-03-29T01:00", "2026-03-30T00:00"]],
      // The first of the two 02:00s only.
      ["Europe/Berlin", "2026-10-24", ["2026-10-24T00:00", "2026-10-25T00:00", "2026-10-26T01:00"]],
      ["America/New_York", "2026-03-07", ["2026-03-07T07:00", "2026-03-08T07:00", "2026-03-09T06:00"]],
      ["America/New_York", "2026-10-31", ["2026-10-31T06:00", "2026-11-01T07:00", "2026-11-02T07:00"]],
      ["Australia/Sydney", "2026-10-02", ["2026-10-02T16:00", "2026-10-03T16:00", "2026-10-04T15:00"]],
      ["Australia/Sydney", "2026-04-03", ["2026-04-03T15:00", "2026-04-04T15:00", "2026-04-05T16:00"]],
    ];
    const ids: number[] = [];
    for (const [timeZone, day] of windows) {
      const from = new Date(Date.parse(`${day}T00:00:00Z`) - 1000);
      ids.push(
        (
          await addSchedule(
            db(),
            base,
            { cadence: "daily", hour: 2, timeZone, emails: ["ops@example.net"] },
            from,
          )
        ).id,
      );
    }
    // A tick 30 s past every UTC hour for each window's three days: the injected clock.
    for (const day of [...new Set(windows.map((w) => w[1]))].sort())
      for (let h = 0; h < 72; h++) {
        const now = new Date(Date.parse(`${day}T00:00:00Z`) + h * HOUR + 30_000);
        await task(undefined, () => now)(now);
      }
    const got = await sent();
    windows.forEach(([, day, expected], i) => {
      const start = Date.parse(`${day}T00:00:00Z`);
      const runs = got.filter((d) => d.scheduleId === ids[i]).map((d) => new Date(d.runAt).getTime());
      const inWindow = runs.filter((t) => t >= start && t < start + 72 * HOUR);
      expect(inWindow.map((t) => new Date(t).toISOString().slice(0, 16))).toEqual(expected);
    });
    expect(got.every((d) => d.state === "sent" && d.attempts === 1)).toBe(true);
  });

  it("sends each run once while two schedulers work the same rows", async () => {
    const base = await adminReport(db());
    const now = new Date("2026-11-23T09:00:30Z");
    for (let i = 0; i < 20; i++)
      await addSchedule(
        db(),
        base,
        { cadence: "daily", hour: 9, timeZone: "UTC", emails: [`a${i}@example.net`, `b${i}@example.net`] },
        new Date("2026-11-22T12:00:00Z"),
      );
    const a = task(undefined, () => now);
    const b = task(undefined, () => now);
    await Promise.all([a(now), b(now), a(now), b(now)]);
    const deliveries = await sent();
    expect(deliveries).toHaveLength(40);
    expect(deliveries.every((d) => d.state === "sent" && d.attempts === 1)).toBe(true);
    const mail = await rows<{ to: string; n: number }>(
      db(),
      sql`select "to", count(*)::int as n from outbox group by "to"`,
    );
    expect(mail).toHaveLength(40);
    expect(mail.every((m) => m.n === 1)).toBe(true);
  });

  it("retries a refused message with backoff and sends it with its files and unsubscribe headers", async () => {
    const smtp = await refusingSmtp(1);
    try {
      const base = await adminReport(db());
      await addSchedule(
        db(),
        base,
        {
          cadence: "weekly",
          hour: 8,
          weekday: 1,
          timeZone: "Europe/Berlin",
          format: "both",
          memberIds: [base.userId],
        },
        new Date("2026-11-22T12:00:00Z"),
      );
      const first = new Date("2026-11-23T07:00:30Z");
      await task(smtp.url, () => first)(first);
      const [refused] = await sent();
      expect(refused).toMatchObject({ state: "queued", attempts: 1, recipient: "admin@example.com" });
      const [log] = await rows<{ lastError: string; next: Date }>(
        db(),
        sql`select last_error as "lastError", next_attempt_at as next from report_deliveries`,
      );
      expect(log!.lastError).toContain("Mailbox busy");
      expect(new Date(log!.next).getTime() - first.getTime()).toBe(30_000);
      const again = new Date(first.getTime() + 31_000);
      await task(smtp.url, () => again)(again);
      expect((await sent())[0]).toMatchObject({ state: "sent", attempts: 2 });
      expect(smtp.received).toHaveLength(1);
      const raw = smtp.received[0]!.replace(/\r?\n[ \t]+/g, " ");
      expect(raw).toMatch(/^List-Unsubscribe: <http:\/\/portal\.test\/report-unsubscribe\?token=[\w-]+>/m);
      expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
      expect(raw).toMatch(/filename="?[^"\n]* 2026-11-16\.pdf/);
      expect(raw).toMatch(/filename="?[^"\n]* 2026-11-16\.csv/);
      const [stored] = await rows<{ n: number }>(db(), sql`select count(*)::int as n from outbox`);
      expect(stored!.n).toBe(1);
    } finally {
      smtp.close();
    }
  });
});
