import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { outboxStore } from "../../server/data/outbox.ts";
import { reportScheduleTask } from "../../server/flows/reportSchedules.ts";
import { createMailer } from "../../server/services/mail.ts";
import {
  MAX_SCHEDULES,
  NOT_MEMBERS,
  RECIPIENTS_REQUIRED,
  SCHEDULE_LIMIT,
  UNSUBSCRIBED,
  type Schedule,
} from "../../src/api/reportSchedules.ts";
import { browser, signIn } from "./client.ts";
import { useTestApp } from "./helpers.ts";
import { adminReport } from "./reportSchedulesKit.ts";

const INPUT = {
  cadence: "weekly",
  hour: 7,
  weekday: 1,
  timeZone: "America/New_York",
  scale: "F",
  format: "pdf",
  userIds: [] as number[],
  emails: ["Plant.Manager@Example.net"],
};

describe("report schedules in the builder", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const admin = async () => {
    const b = browser(ctx.app);
    await signIn(b, "admin@example.com");
    return b;
  };
  const body = async (res: Response) => (await res.json()) as { success: boolean; data: unknown };

  it("adds a schedule whose next send is the coming Monday 07:00 in its zone", async () => {
    const { reportId, userId } = await adminReport(db());
    const b = await admin();
    const res = await b.json(`/api/v1/reports/${reportId}/schedules`, { ...INPUT, userIds: [userId] });
    const made = (await body(res)).data as Schedule;
    expect(res.status).toBe(200);
    // TEST_NOW is Sunday 2026-11-22 12:00 UTC; Monday 07:00 EST is 12:00 UTC.
    expect(new Date(made.nextRunAt * 1000).toISOString()).toBe("2026-11-23T12:00:00.000Z");
    expect(made.emails).toEqual(["plant.manager@example.net"]);
    const list = (await body(await b.get(`/api/v1/reports/${reportId}/schedules`))).data as {
      schedules: Schedule[];
      members: { id: number }[];
    };
    expect(list.schedules.map((s) => s.id)).toEqual([made.id]);
    expect(list.members.map((m) => m.id)).toContain(userId);
  });

  it("refuses another subscription's user id with a 400 that names no one", async () => {
    const { reportId, subscriptionId } = await adminReport(db());
    const [stranger] = await rows<{ id: number }>(
      db(),
      sql`select u.id from users u where not exists (select 1 from user_assignments a where a.user_id = u.id and a.subscription_id = ${subscriptionId}) limit 1`,
    );
    const res = await (
      await admin()
    ).json(`/api/v1/reports/${reportId}/schedules`, { ...INPUT, userIds: [stranger!.id] });
    expect(res.status).toBe(400);
    expect(await body(res)).toEqual({ success: false, data: [{ field: "userIds", message: NOT_MEMBERS }] });
  });

  it("asks for a recipient and holds a report to its schedule limit", async () => {
    const { reportId } = await adminReport(db());
    const b = await admin();
    const empty = await b.json(`/api/v1/reports/${reportId}/schedules`, { ...INPUT, emails: [] });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await body(empty))).toContain(RECIPIENTS_REQUIRED);
    for (let i = 0; i < MAX_SCHEDULES; i++)
      expect((await b.json(`/api/v1/reports/${reportId}/schedules`, INPUT)).status).toBe(200);
    const over = await b.json(`/api/v1/reports/${reportId}/schedules`, INPUT);
    expect(over.status).toBe(400);
    expect(await body(over)).toEqual({ success: false, data: [{ field: null, message: SCHEDULE_LIMIT }] });
  });

  it("unsubscribes by the mail's POST, never by opening the link", async () => {
    const { reportId } = await adminReport(db());
    const b = await admin();
    const made = (await body(await b.json(`/api/v1/reports/${reportId}/schedules`, INPUT))).data as Schedule;
    const at = new Date(made.nextRunAt * 1000 + 30_000);
    await reportScheduleTask({
      db: db(),
      mailer: createMailer(outboxStore(db()), undefined, () => at),
      origin: "http://localhost",
    })(at);
    const [mail] = await rows<{ text: string }>(db(), sql`select text from outbox`);
    const link = /http:\/\/localhost(\/report-unsubscribe\?token=[\w-]+)/.exec(mail!.text)![1]!;
    const visitor = browser(ctx.app);
    const page = await visitor.get(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<button type="submit">Unsubscribe</button>');
    const still = (await body(await b.get(`/api/v1/reports/${reportId}/schedules`))).data as {
      schedules: Schedule[];
    };
    expect(still.schedules[0]!.emails).toEqual(["plant.manager@example.net"]);
    // A mail client's one-click POST (RFC 8058) carries no Origin and no cookie.
    const oneClick = await ctx.app.request(`http://localhost${link}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain(UNSUBSCRIBED);
    const after = (await body(await b.get(`/api/v1/reports/${reportId}/schedules`))).data as {
      schedules: Schedule[];
    };
    expect(after.schedules[0]!.emails).toEqual([]);
    expect(after.schedules[0]!.deliveries).toMatchObject([
      { recipient: "plant.manager@example.net", state: "sent" },
    ]);
  });
});
