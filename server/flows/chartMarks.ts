// The alarm story and pinned comments of a chart (issue 36): read for a shared report (notes
// and names only when its owner shows them) or for a signed-in person's channel (all of it),
// and turned into the marks the server's picture and the PDF draw.
import {
  alarmsInScope,
  commentsInScope,
  devicesOfChannels,
  type AlarmRow,
  type CommentRow,
  type MarkScope,
} from "../data/chartMarks.ts";
import type { Db } from "../db/client.ts";
import type { ReportChannel, ReportRow } from "../data/reports.ts";
import { secondsOf } from "../core/time.ts";
import { chartMarks, type ChartMark } from "../../src/domain/chartMarks.ts";
import { KIND_TEXT, type RuleKind } from "../../src/domain/alerts.ts";
import type { AlarmStoryView, ChartMarksView, PinnedCommentView } from "../../src/api/chartMarks.ts";

/** "Ada Lovelace" of "Ada Lovelace (ada@example.com)": a public page names, it does not give addresses. */
export const nameOnly = (person: string) => person.replace(/\s*\([^()]*@[^()]*\)$/, "");

/** What a public page calls an alarm's rule: "above limit", "device silent". */
const publicRuleName = (kind: string) =>
  ({ above: "above limit", below: "below limit", outside: "outside limits" })[kind] ??
  KIND_TEXT[kind as RuleKind] ??
  "alarm";

/** `full`: notes and names as stored (signed in); `names`: the public report's owner shows them. */
type Shown = "full" | "names" | "none";

function alarmView(r: AlarmRow, shown: Shown): AlarmStoryView {
  const by = r.acknowledged_by;
  return {
    id: r.id,
    channelKey: r.channel_key,
    device: r.device,
    // A rule's name is the members' own text ("Dock door — ask Tom"): a public page says its kind.
    rule: shown === "none" ? publicRuleName(r.kind) : r.rule,
    kind: r.kind,
    triggeredAt: r.triggered_at,
    acknowledgedAt: r.acknowledged_at,
    acknowledgedBy: by === null || shown === "none" ? null : shown === "full" ? by : nameOnly(by),
    note: shown === "none" ? null : r.note,
    clearedAt: r.cleared_at,
    value: r.value,
    limit: r.limit,
  };
}

function commentView(c: CommentRow, shown: Shown): PinnedCommentView {
  return {
    id: c.id,
    channelKey: c.channelKey,
    at: secondsOf(c.at),
    text: c.text,
    author: shown === "none" ? null : c.authorName,
  };
}

/** The scope's alarms and comments as the API answers them. */
export async function marksOf(db: Db, scope: MarkScope, shown: Shown): Promise<ChartMarksView> {
  const [alarms, comments] = await Promise.all([alarmsInScope(db, scope), commentsInScope(db, scope)]);
  return {
    alarms: alarms.map((a) => alarmView(a, shown)),
    comments: comments.map((c) => commentView(c, shown)),
  };
}

/** A shared report's alarms and comments over `window`: notes and names as its owner chose. */
export async function reportMarks(
  db: Db,
  report: ReportRow,
  channels: readonly ReportChannel[],
  window: { start: number; end: number },
): Promise<ChartMarksView> {
  const channelIds = channels.map((c) => c.channelId);
  const deviceIds = await devicesOfChannels(db, report.subscriptionId, channelIds);
  const scope = { subscriptionId: report.subscriptionId, channelIds, deviceIds, ...window };
  return marksOf(db, scope, report.showAlarmNotes ? "names" : "none");
}

/** The marks a picture of the report's channels draws (src/domain/chartMarks.ts). */
export function pictureMarks(
  marks: ChartMarksView,
  channels: readonly Pick<ReportChannel, "channelKey" | "name">[],
  window: { start: number; end: number },
): ChartMark[] {
  const names = new Map(channels.map((c) => [c.channelKey, c.name]));
  return chartMarks(
    marks.alarms,
    marks.comments,
    { from: window.start, to: window.end },
    (key) => names.get(key) ?? key,
  );
}

/** What of the marks changes a picture: part of its cache key, with the owner's choice. */
export const marksVersion = (report: ReportRow, marks: ChartMarksView) =>
  JSON.stringify([
    report.showAlarmNotes,
    marks.alarms.map((a) => [a.id, a.acknowledgedAt, a.clearedAt]),
    marks.comments.map((c) => c.id),
  ]);
