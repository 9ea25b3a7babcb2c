// The scheduled reports' queue: due schedules claimed with FOR UPDATE SKIP LOCKED, each run's
// deliveries written and the next run set in that one transaction; deliveries then claimed
// with a lease, stored once in the mail outbox (attachments beside it) and settled.
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { inTransaction, type Db } from "../db/client.ts";
import {
  outbox,
  outboxAttachments,
  reportDeliveries,
  reportSchedules,
  userAssignments,
  users,
} from "../db/schema/index.ts";
import type { EpochSeconds } from "../../src/domain/brand.ts";
import { nextSendAfter, type Cadence } from "../../src/domain/reportSchedule.ts";

/** A file kept with a message (services/mail.ts's MailAttachment has this shape). */
interface StoredFile {
  filename: string;
  contentType: string;
  content: Uint8Array;
}
interface StoredMail {
  to: string;
  subject: string;
  text: string;
  secretUntil?: Date;
  attachments?: StoredFile[];
}

export type ScheduleRow = typeof reportSchedules.$inferSelect;
export type DeliveryRow = typeof reportDeliveries.$inferSelect;

const RUN_BATCH = 20;
const SEND_BATCH = 20;

const secs = (d: Date) => Math.floor(d.getTime() / 1000) as EpochSeconds;

/** The schedule's next send after `after` (src/domain/reportSchedule.ts). */
export function nextRunOf(s: Pick<ScheduleRow, "cadence" | "hour" | "weekday" | "timeZone">, after: Date) {
  const timing = { cadence: s.cadence as Cadence, hour: s.hour, weekday: s.weekday, timeZone: s.timeZone };
  return new Date(nextSendAfter(timing, secs(after)) * 1000);
}

/** The members of a subscription among `ids`, with their addresses. */
export async function membersOf(db: Db, subscriptionId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, email: users.email })
    .from(userAssignments)
    .innerJoin(users, eq(users.id, userAssignments.userId))
    .where(and(eq(userAssignments.subscriptionId, subscriptionId), inArray(users.id, [...ids])));
}

/**
 * Claims the due schedules (others' claims skipped), queues one delivery per recipient of each
 * run (unique, so a second claim queues nothing) and moves each to its next send after `now`
 * (a run missed while every instance was down is sent once, late, not once per missed day).
 */
export function queueDueRuns(db: Db, now: Date): Promise<number> {
  return inTransaction(db, async (tx) => {
    const due = await tx
      .select()
      .from(reportSchedules)
      .where(and(eq(reportSchedules.paused, false), lte(reportSchedules.nextRunAt, now)))
      .orderBy(asc(reportSchedules.nextRunAt))
      .limit(RUN_BATCH)
      .for("update", { skipLocked: true });
    for (const s of due) {
      const members = await membersOf(tx, s.subscriptionId, s.memberIds);
      const people = [
        ...members.map((m) => ({ recipient: m.email.toLowerCase(), userId: m.id as number | null })),
        ...s.emails.map((e) => ({ recipient: e, userId: null })),
      ];
      const unique = [...new Map(people.map((p) => [p.recipient, p])).values()];
      if (unique.length)
        await tx
          .insert(reportDeliveries)
          .values(
            unique.map((p) => ({
              scheduleId: s.id,
              runAt: s.nextRunAt,
              nextAttemptAt: now,
              createdAt: now,
              ...p,
            })),
          )
          .onConflictDoNothing();
      await tx
        .update(reportSchedules)
        .set({ nextRunAt: nextRunOf(s, now > s.nextRunAt ? now : s.nextRunAt) })
        .where(eq(reportSchedules.id, s.id));
    }
    return due.length;
  });
}

/**
 * Claims due deliveries for `leaseMs` (another instance leaves them alone until then) and
 * counts the attempt; returns them with their schedule.
 */
export function claimDeliveries(db: Db, now: Date, leaseMs: number) {
  return inTransaction(db, async (tx) => {
    const due = await tx
      .select({ id: reportDeliveries.id })
      .from(reportDeliveries)
      .where(
        and(
          eq(reportDeliveries.state, "queued"),
          lte(reportDeliveries.nextAttemptAt, now),
          or(isNull(reportDeliveries.leaseUntil), lt(reportDeliveries.leaseUntil, now)),
        ),
      )
      .orderBy(asc(reportDeliveries.nextAttemptAt))
      .limit(SEND_BATCH)
      .for("update", { skipLocked: true });
    if (!due.length) return [];
    const claimed = await tx
      .update(reportDeliveries)
      .set({
        leaseUntil: new Date(now.getTime() + leaseMs),
        attempts: sql`${reportDeliveries.attempts} + 1`,
      })
      .where(
        inArray(
          reportDeliveries.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
    const schedules = await tx
      .select()
      .from(reportSchedules)
      .where(inArray(reportSchedules.id, [...new Set(claimed.map((d) => d.scheduleId))]));
    const byId = new Map(schedules.map((s) => [s.id, s]));
    return claimed.flatMap((d) => {
      const schedule = byId.get(d.scheduleId);
      return schedule ? [{ delivery: d, schedule }] : [];
    });
  });
}

/** Stores a delivery's message and its files in the outbox once; returns the outbox id. */
export function storeMessage(
  db: Db,
  deliveryId: number,
  mail: StoredMail,
  unsubscribeHash: string,
  at: Date,
) {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .insert(outbox)
      .values({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        createdAt: at,
        secretUntil: mail.secretUntil,
      })
      .returning({ id: outbox.id });
    const id = row!.id;
    const files = mail.attachments ?? [];
    if (files.length) await tx.insert(outboxAttachments).values(files.map((f) => ({ outboxId: id, ...f })));
    await tx
      .update(reportDeliveries)
      .set({ outboxId: id, unsubscribeHash })
      .where(eq(reportDeliveries.id, deliveryId));
    return id;
  });
}

/** A stored message and its files, to send again after a refusal. */
export async function storedMessage(db: Db, outboxId: number) {
  const [row] = await db.select().from(outbox).where(eq(outbox.id, outboxId));
  if (!row) return null;
  const files: StoredFile[] = (
    await db.select().from(outboxAttachments).where(eq(outboxAttachments.outboxId, outboxId))
  ).map((f) => ({ filename: f.filename, contentType: f.contentType, content: new Uint8Array(f.content) }));
  return { to: row.to, subject: row.subject, text: row.text, attachments: files };
}

/** Settles an attempt: sent, queued again at `retryAt`, or given up (`retryAt` null). */
export async function settleDelivery(
  db: Db,
  id: number,
  outcome: { sentAt: Date } | { error: string; retryAt: Date | null },
) {
  const set =
    "sentAt" in outcome
      ? { state: "sent", sentAt: outcome.sentAt, leaseUntil: null, lastError: null }
      : {
          state: outcome.retryAt ? "queued" : "failed",
          nextAttemptAt: outcome.retryAt ?? undefined,
          leaseUntil: null,
          lastError: outcome.error.slice(0, 500),
        };
  await db.update(reportDeliveries).set(set).where(eq(reportDeliveries.id, id));
}

/**
 * Takes a schedule's row lock (the settling of its run's deliveries then goes one at a time, so
 * exactly one of them sees the run finished); false when the schedule is gone.
 */
export async function lockSchedule(tx: Db, id: number): Promise<boolean> {
  const found = await tx
    .select({ id: reportSchedules.id })
    .from(reportSchedules)
    .where(eq(reportSchedules.id, id))
    .for("update");
  return found.length > 0;
}

/** A run's deliveries counted by state (queued, sent, failed, ...). */
export async function runStates(tx: Db, scheduleId: number, runAt: Date): Promise<Record<string, number>> {
  const found = await tx
    .select({ state: reportDeliveries.state, n: sql<number>`count(*)::int` })
    .from(reportDeliveries)
    .where(and(eq(reportDeliveries.scheduleId, scheduleId), eq(reportDeliveries.runAt, runAt)))
    .groupBy(reportDeliveries.state);
  return Object.fromEntries(found.map((r) => [r.state, Number(r.n)]));
}
