// The report builder's changes, each with its audit row in one transaction (docs/decisions.md,
// "What the audit trail records of reports"): a report's settings and threshold ranges, its
// public link (named by its state, never by its token), and its two public switches.
import type { Db } from "../db/client.ts";
import type { Auth } from "../data/auth.ts";
import { alarmNotesShown, showAlarmNotes } from "../data/chartMarks.ts";
import {
  createReport as insertReport,
  deleteReport as removeReport,
  findReport,
  reportDetail,
  updateReport as rewriteReport,
} from "../data/reportBuilder.ts";
import type { ReportRow } from "../data/reportLinks.ts";
import { lockReport, setVisitorsMaySubscribe, visitorSettingsOf } from "../data/visitors.ts";
import { audited, byUser, type AuditDeps } from "./audited.ts";
import type { ReportDetail, ReportInput } from "../../src/api/reportBuilder.ts";

const iso = (epoch: number | null) => (epoch === null ? null : new Date(epoch * 1000).toISOString());

/** A channel of a report, one line a person reads in the trail: "channel 3, #112233, left axis". */
const channelText = (c: ReportDetail["channels"][number]) =>
  `channel ${c.channelId}, ${c.color}, ${c.axis === 0 ? "left" : "right"} axis`;

/** A threshold range in one line (Celsius for temperatures): "Too warm: min 8, max none, channel 3, #ff0000". */
const rangeText = (t: ReportDetail["thresholds"][number]) =>
  `${t.name}: min ${t.minValue ?? "none"}, max ${t.maxValue ?? "none"}, ` +
  `${t.channelId === null ? "all channels" : `channel ${t.channelId}`}, ${t.color}`;

/** A report's settings as its rows show them; ranges without their ids, which every save renews. */
export const reportValues = (r: ReportDetail) => ({
  name: r.name,
  timeInterval: r.timeInterval,
  startDate: iso(r.startDate),
  endDate: iso(r.endDate),
  channels: r.channels.map(channelText),
  thresholds: r.thresholds.map(rangeText),
  mktActivationEnergy: r.mktActivationEnergy,
});

/** Who changed which report of their subscription. */
const reportEntry = (auth: Auth, id: number, action: string) => ({ ...byUser(auth), action, entityId: id });

/** Creates a report (within the plan's limit) and records its settings; its id. */
export async function createReportRecorded(deps: AuditDeps, auth: Auth, input: ReportInput) {
  const sub = auth.subscription.id;
  const made = await audited(
    deps,
    async (tx) => {
      const id = await insertReport(tx, sub, input);
      return { id, detail: (await reportDetail(tx, sub, id, deps.now()))! };
    },
    ({ id, detail }) => ({ ...reportEntry(auth, id, "report.create"), after: reportValues(detail) }),
  );
  return made.id;
}

/** Replaces a report's settings under its row lock, recording what changed; false when it is gone. */
export async function updateReportRecorded(deps: AuditDeps, auth: Auth, id: number, input: ReportInput) {
  const sub = auth.subscription.id;
  const done = await audited(
    deps,
    async (tx) => {
      await lockReport(tx, id);
      const before = await reportDetail(tx, sub, id, deps.now());
      if (!before || !(await rewriteReport(tx, sub, id, input))) return null;
      return { before, after: (await reportDetail(tx, sub, id, deps.now()))! };
    },
    (r) =>
      r && {
        ...reportEntry(auth, id, "report.change"),
        before: reportValues(r.before),
        after: reportValues(r.after),
      },
  );
  return done !== null;
}

/** Deletes a report, recording the settings it had; false when there was none. */
export async function deleteReportRecorded(deps: AuditDeps, auth: Auth, id: number) {
  const sub = auth.subscription.id;
  const gone = await audited(
    deps,
    async (tx) => {
      await lockReport(tx, id);
      const before = await reportDetail(tx, sub, id, deps.now());
      return before && (await removeReport(tx, id)) ? before : null;
    },
    (before) =>
      before && { ...reportEntry(auth, id, "report.delete"), before: reportValues(before), after: null },
  );
  return gone !== null;
}

/** A public link as the trail names it: on, replaced or off, paused, its expiry; never its token. */
const linkValues = (row: ReportRow, before?: ReportRow) => ({
  name: row.name,
  publicLink: !row.publicHash
    ? "off"
    : before?.publicHash && before.publicHash !== row.publicHash
      ? "replaced"
      : "on",
  paused: row.pausedAt !== null,
  expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
});

/**
 * Changes a report's public link under the report's row lock (share, pause, expiry, stop) and
 * records the link before and after. `action` may depend on the link before (create or replace).
 */
export function changeLinkRecorded(
  deps: AuditDeps,
  auth: Auth,
  id: number,
  action: (before: ReportRow) => string,
  change: (tx: Db) => Promise<unknown>,
) {
  return audited(
    deps,
    async (tx) => {
      await lockReport(tx, id);
      const before = await findReport(tx, id);
      // Deleted meanwhile: nothing to change (the route's answer then reads it missing).
      if (!before) return null;
      await change(tx);
      return { before, after: (await findReport(tx, id))! };
    },
    (r) =>
      r && {
        ...reportEntry(auth, id, action(r.before)),
        before: linkValues(r.before),
        after: linkValues(r.after, r.before),
      },
  );
}

/** Shows or hides alarm notes and names on the public report; null when not the subscription's. */
export function setAlarmNotesRecorded(deps: AuditDeps, auth: Auth, id: number, show: boolean) {
  const sub = auth.subscription.id;
  return audited(
    deps,
    async (tx) => {
      await lockReport(tx, id);
      const before = await alarmNotesShown(tx, sub, id);
      if (before === null) return null;
      const name = (await findReport(tx, id))?.name ?? null;
      return { before, after: await showAlarmNotes(tx, sub, id, show), name };
    },
    (r) =>
      r && {
        ...reportEntry(auth, id, "report.change"),
        // The name only names the row in the viewer: unchanged, it is shown as no change.
        before: { name: r.name, showAlarmNotes: r.before },
        after: { name: r.name, showAlarmNotes: r.after },
      },
  ).then((r) => (r ? r.after : null));
}

/** Turns visitors' subscriptions to the report on or off (the route checked the report is ours). */
export function setVisitorsRecorded(deps: AuditDeps, auth: Auth, id: number, on: boolean) {
  return audited(
    deps,
    async (tx) => {
      await lockReport(tx, id);
      const before = await visitorSettingsOf(tx, id);
      if (!before) return null;
      await setVisitorsMaySubscribe(tx, id, on);
      return { was: before.visitorsMaySubscribe, name: (await findReport(tx, id))?.name ?? null };
    },
    (r) =>
      r === null
        ? null
        : {
            ...reportEntry(auth, id, "report.change"),
            before: { name: r.name, visitorsMaySubscribe: r.was },
            after: { name: r.name, visitorsMaySubscribe: on },
          },
  );
}
