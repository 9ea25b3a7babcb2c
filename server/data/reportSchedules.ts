// The report builder's schedules: list with their latest deliveries, add, change, delete, and
// the one-click unsubscribe that takes an address off its schedule.
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { sha256 } from "../core/crypto.ts";
import { secondsOf } from "../core/time.ts";
import { inTransaction, type Db } from "../db/client.ts";
import { reportDeliveries, reportSchedules, userAssignments, users } from "../db/schema/index.ts";
import { nextRunOf, type ScheduleRow } from "./reportDeliveries.ts";
import {
  LOG_LENGTH,
  type Delivery,
  type Schedule,
  type ScheduleInput,
} from "../../src/api/reportSchedules.ts";

const epoch = (d: Date | null) => (d === null ? null : secondsOf(d));

/** The members of a subscription, by name, for the recipient picker. */
export async function subscriptionMembers(db: Db, subscriptionId: number) {
  const found = await db
    .select({ id: users.id, first: users.firstName, last: users.lastName, email: users.email })
    .from(userAssignments)
    .innerJoin(users, eq(users.id, userAssignments.userId))
    .where(eq(userAssignments.subscriptionId, subscriptionId))
    .orderBy(users.email);
  return found.map((m) => ({ id: m.id, name: `${m.first} ${m.last}`.trim() || m.email, email: m.email }));
}

function scheduleOf(row: ScheduleRow, deliveries: Delivery[]): Schedule {
  return {
    id: row.id,
    reportId: row.reportId,
    cadence: row.cadence as Schedule["cadence"],
    hour: row.hour,
    weekday: row.weekday,
    timeZone: row.timeZone,
    scale: row.scale as Schedule["scale"],
    format: row.format as Schedule["format"],
    userIds: row.memberIds,
    emails: row.emails,
    paused: row.paused,
    nextRunAt: secondsOf(row.nextRunAt),
    deliveries,
  };
}

/** A report's schedules (or one of them) with each one's latest deliveries. */
export async function schedulesOf(db: Db, where: { reportId: number } | { id: number }): Promise<Schedule[]> {
  const found = await db
    .select()
    .from(reportSchedules)
    .where("id" in where ? eq(reportSchedules.id, where.id) : eq(reportSchedules.reportId, where.reportId))
    .orderBy(reportSchedules.id);
  if (!found.length) return [];
  const log = await db
    .select()
    .from(reportDeliveries)
    .where(
      and(
        inArray(
          reportDeliveries.scheduleId,
          found.map((s) => s.id),
        ),
        sql`${reportDeliveries.id} in (select d.id from report_deliveries d where d.schedule_id = ${reportDeliveries.scheduleId} order by d.run_at desc, d.id desc limit ${LOG_LENGTH})`,
      ),
    )
    .orderBy(desc(reportDeliveries.runAt), reportDeliveries.id);
  return found.map((s) =>
    scheduleOf(
      s,
      log
        .filter((d) => d.scheduleId === s.id)
        .map((d) => ({
          runAt: secondsOf(d.runAt),
          recipient: d.recipient,
          state: d.state === "sent" || d.state === "failed" ? d.state : "queued",
          attempts: d.attempts,
          lastError: d.lastError,
          sentAt: epoch(d.sentAt),
        })),
    ),
  );
}

/** The schedule row by id (the route checks its subscription). */
export async function findSchedule(db: Db, id: number) {
  const [row] = await db.select().from(reportSchedules).where(eq(reportSchedules.id, id));
  return row ?? null;
}

const fieldsOf = (input: ScheduleInput, now: Date) => {
  const timing = {
    cadence: input.cadence,
    hour: input.hour,
    weekday: input.weekday,
    timeZone: input.timeZone,
  };
  return {
    ...timing,
    weekday: input.cadence === "weekly" ? input.weekday : 1,
    scale: input.scale,
    format: input.format,
    memberIds: [...new Set(input.userIds)],
    emails: [...new Set(input.emails)],
    paused: input.paused,
    nextRunAt: nextRunOf(timing, now),
  };
};

/**
 * Adds a schedule unless the report has `max` already (counted under the report's row lock,
 * so two at once cannot both pass); returns its id, or null at the limit.
 */
export function addSchedule(
  db: Db,
  report: { id: number; subscriptionId: number },
  input: ScheduleInput,
  by: number,
  max: number,
  now: Date,
): Promise<number | null> {
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`select id from reports where id = ${report.id} for update`);
    const [had] = await tx
      .select({ n: count() })
      .from(reportSchedules)
      .where(eq(reportSchedules.reportId, report.id));
    if ((had?.n ?? 0) >= max) return null;
    const [row] = await tx
      .insert(reportSchedules)
      .values({
        reportId: report.id,
        subscriptionId: report.subscriptionId,
        createdBy: by,
        ...fieldsOf(input, now),
      })
      .returning({ id: reportSchedules.id });
    return row!.id;
  });
}

/** Replaces a schedule's settings; the next send is worked out from `now`. */
export async function changeSchedule(db: Db, id: number, input: ScheduleInput, now: Date) {
  await db.update(reportSchedules).set(fieldsOf(input, now)).where(eq(reportSchedules.id, id));
}

export async function removeSchedule(db: Db, id: number) {
  await db.delete(reportSchedules).where(eq(reportSchedules.id, id));
}

/**
 * Takes the address an emailed report went to off that schedule (one click, RFC 8058):
 * a member by id, an outside address by itself. The schedule before and after, and the address;
 * null when the token opens nothing.
 */
export function unsubscribe(
  db: Db,
  token: string,
): Promise<{ before: ScheduleRow; after: ScheduleRow; recipient: string } | null> {
  return inTransaction(db, async (tx) => {
    if (!token) return null;
    const [d] = await tx
      .select()
      .from(reportDeliveries)
      .where(eq(reportDeliveries.unsubscribeHash, sha256(token)));
    if (!d) return null;
    const [s] = await tx
      .select()
      .from(reportSchedules)
      .where(eq(reportSchedules.id, d.scheduleId))
      .for("update");
    if (!s) return null;
    const [after] = await tx
      .update(reportSchedules)
      .set({
        memberIds: s.memberIds.filter((id) => id !== d.userId),
        emails: s.emails.filter((e) => e !== d.recipient),
      })
      .where(eq(reportSchedules.id, s.id))
      .returning();
    return { before: s, after: after!, recipient: d.recipient };
  });
}

/** Whether an unsubscribe token opens a delivery (the page's GET changes nothing). */
export async function unsubscribeKnown(db: Db, token: string): Promise<boolean> {
  if (!token) return false;
  const [d] = await db
    .select({ id: reportDeliveries.id })
    .from(reportDeliveries)
    .where(eq(reportDeliveries.unsubscribeHash, sha256(token)));
  return d !== undefined;
}
