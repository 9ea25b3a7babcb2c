// The rest of what people do around reports, each with its audit row in one transaction: report
// exports by members, chart comments, mail schedules and their one-click unsubscribe
// (docs/decisions.md, "What the audit trail records of reports").
import type { Db } from "../db/client.ts";
import { authOfSession, type Auth } from "../data/auth.ts";
import { channelByKey } from "../data/channels.ts";
import { deleteComment, insertComment, type CommentRow } from "../data/chartMarks.ts";
import { membersOf, type ScheduleRow } from "../data/reportDeliveries.ts";
import {
  addSchedule,
  changeSchedule,
  findSchedule,
  removeSchedule,
  unsubscribe,
} from "../data/reportSchedules.ts";
import { findReport } from "../data/reportBuilder.ts";
import { audited, byUser, record, type AuditDeps } from "./audited.ts";
import type { ScheduleInput } from "../../src/api/reportSchedules.ts";

/**
 * Records a download of a shared report's CSV or PDF when a member of the report's subscription
 * makes it (their session cookie, any role): the public link's visitors change nothing and are
 * not members, so their downloads are not in the owner's trail.
 */
export async function memberExport(
  deps: AuditDeps,
  sessionToken: string | null | undefined,
  report: { id: number; subscriptionId: number },
  what: { format: "csv" | "pdf"; from: number; to: number },
) {
  const auth = sessionToken ? await authOfSession(deps.db, sessionToken, deps.now()) : null;
  if (!auth || auth.subscription.id !== report.subscriptionId) return;
  await record(deps, {
    ...byUser(auth),
    action: "report.export",
    entityId: report.id,
    after: {
      format: what.format,
      from: new Date(what.from * 1000).toISOString(),
      to: new Date(what.to * 1000).toISOString(),
    },
  });
}

const commentValues = (row: CommentRow) => ({
  channel: row.channelKey,
  at: row.at.toISOString(),
  text: row.text,
});

/** Pins a comment to a channel's chart and records it; the stored comment. */
export function addCommentRecorded(
  deps: AuditDeps,
  auth: Auth,
  channel: { channelId: number; deviceId: number },
  comment: { at: number; text: string; authorName: string },
) {
  return audited(
    deps,
    (tx) =>
      insertComment(tx, {
        subscriptionId: auth.subscription.id,
        channelId: channel.channelId,
        authorId: auth.user.id,
        ...comment,
      }),
    (row) => ({
      ...byUser(auth),
      action: "chart.comment.create",
      entityId: row.id,
      deviceId: channel.deviceId,
      after: commentValues(row),
    }),
  );
}

/** Deletes a comment of the subscription and records what it said; false when there was none. */
export async function deleteCommentRecorded(deps: AuditDeps, auth: Auth, id: number) {
  const gone = await audited(
    deps,
    async (tx) => {
      const row = await deleteComment(tx, auth.subscription.id, id);
      return row && { row, deviceId: (await channelByKey(tx, row.channelKey))?.deviceId ?? null };
    },
    (r) =>
      r && {
        ...byUser(auth),
        action: "chart.comment.delete",
        entityId: id,
        deviceId: r.deviceId,
        before: commentValues(r.row),
        after: null,
      },
  );
  return gone !== null;
}

/** A schedule as its rows show it: members by address, outside addresses, timing and files. */
async function scheduleValues(tx: Db, s: ScheduleRow) {
  const members = await membersOf(tx, s.subscriptionId, s.memberIds);
  return {
    // The report's name names the schedule in the viewer ("Schedule: Cold chain").
    name: (await findReport(tx, s.reportId))?.name ?? null,
    report: s.reportId,
    cadence: s.cadence,
    hour: s.hour,
    weekday: s.weekday,
    timeZone: s.timeZone,
    scale: s.scale,
    format: s.format,
    members: members.map((m) => m.email.toLowerCase()).sort(),
    emails: [...s.emails],
    paused: s.paused,
  };
}

const scheduleEntry = (auth: Auth, id: number, action: string) => ({ ...byUser(auth), action, entityId: id });

/** Adds a report's schedule (under its limit) and records it; its id, or null at the limit. */
export function addScheduleRecorded(
  deps: AuditDeps,
  auth: Auth,
  report: { id: number; subscriptionId: number },
  input: ScheduleInput,
  max: number,
) {
  return audited(
    deps,
    async (tx) => {
      const id = await addSchedule(tx, report, input, auth.user.id, max, deps.now());
      return id === null ? null : { id, after: await scheduleValues(tx, (await findSchedule(tx, id))!) };
    },
    (made) => made && { ...scheduleEntry(auth, made.id, "report.schedule.create"), after: made.after },
  ).then((made) => made?.id ?? null);
}

/** Replaces a schedule's settings and records what changed. */
export function changeScheduleRecorded(deps: AuditDeps, auth: Auth, id: number, input: ScheduleInput) {
  return audited(
    deps,
    async (tx) => {
      const before = await findSchedule(tx, id);
      if (!before) return null;
      await changeSchedule(tx, id, input, deps.now());
      return {
        before: await scheduleValues(tx, before),
        after: await scheduleValues(tx, (await findSchedule(tx, id))!),
      };
    },
    (r) => r && { ...scheduleEntry(auth, id, "report.schedule.change"), ...r },
  );
}

/** Deletes a schedule and records the settings it had. */
export function deleteScheduleRecorded(deps: AuditDeps, auth: Auth, id: number) {
  return audited(
    deps,
    async (tx) => {
      const before = await findSchedule(tx, id);
      if (!before) return null;
      const values = await scheduleValues(tx, before);
      await removeSchedule(tx, id);
      return values;
    },
    (before) => before && { ...scheduleEntry(auth, id, "report.schedule.delete"), before, after: null },
  );
}

/**
 * The one-click unsubscribe of an emailed scheduled report, recorded in the schedule's chain as
 * the recipient of the link; true when the token opened a schedule. Its token is never recorded.
 */
export async function unsubscribeRecorded(deps: AuditDeps, token: string) {
  const done = await audited(
    deps,
    async (tx) => {
      const r = await unsubscribe(tx, token);
      return r && { r, before: await scheduleValues(tx, r.before), after: await scheduleValues(tx, r.after) };
    },
    (x) =>
      x && {
        subscriptionId: x.r.after.subscriptionId,
        actor: { kind: "mail-link", label: x.r.recipient },
        action: "report.schedule.unsubscribe",
        entityId: x.r.after.id,
        before: x.before,
        after: x.after,
      },
  );
  return done !== null;
}
