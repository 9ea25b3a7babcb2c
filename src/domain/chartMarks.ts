import { formatStamp } from "./reportText.ts";

/*
 * The alarm story and pinned comments on a chart's time axis (issue 36): each alarm's trigger,
 * acknowledgement and clearing and each comment as a mark with a short label and a tooltip.
 * The server's picture, the report's live chart, the explore chart and the PDF draw the same
 * marks, so the rule lives here once. Kept small: the report chart's chunk carries it.
 */

/** An alarm as a chart reads it (epoch seconds); note and `by` are null where they are not shown. */
export interface AlarmStory {
  id: number;
  /** The channel it is about; null for a device alarm (silent device, battery, stale sensor). */
  channelKey: string | null;
  device: string;
  rule: string;
  triggeredAt: number;
  acknowledgedAt: number | null;
  acknowledgedBy: string | null;
  note: string | null;
  clearedAt: number | null;
}

/** A comment pinned to a time on a channel; `author` null where names are not shown. */
export interface PinnedComment {
  id: number;
  channelKey: string;
  at: number;
  text: string;
  author: string | null;
}

export type MarkKind = "triggered" | "acknowledged" | "cleared" | "comment";

export interface ChartMark {
  /** The alarm's or the comment's id. */
  id: number;
  at: number;
  kind: MarkKind;
  /** A few words beside the mark. */
  label: string;
  /** The whole story of the mark, for a tooltip or a <title>. */
  text: string;
}

/** At most this many marks on a chart (the latest); more would hide the lines. */
export const MAX_MARKS = 40;
/** A note is cut to this many characters in a mark's label (the tooltip has all of it). */
export const LABEL_CHARS = 24;

const cut = (s: string) => (s.length > LABEL_CHARS ? `${s.slice(0, LABEL_CHARS - 1)}…` : s);

/**
 * The marks of the alarms and comments inside the window, in time order, the latest MAX_MARKS.
 * `nameOf` names a channel ('sensor - channel'); a device alarm is named by its device.
 */
export function chartMarks(
  alarms: readonly AlarmStory[],
  comments: readonly PinnedComment[],
  window: { from: number; to: number },
  nameOf: (channelKey: string) => string,
): ChartMark[] {
  const marks: ChartMark[] = [];
  const add = (id: number, at: number | null, kind: MarkKind, label: string, text: string) => {
    if (at !== null && at >= window.from && at <= window.to) marks.push({ id, at, kind, label, text });
  };
  for (const a of alarms) {
    const on = a.channelKey === null ? `${a.device} (device)` : nameOf(a.channelKey);
    add(a.id, a.triggeredAt, "triggered", "Alarm", `Alarm: ${a.rule} on ${on}`);
    const by = a.acknowledgedBy ? ` by ${a.acknowledgedBy}` : "";
    const note = a.note ? `: ${a.note}` : "";
    add(
      a.id,
      a.acknowledgedAt,
      "acknowledged",
      a.note ? `Ack: ${cut(a.note)}` : "Ack",
      `Acknowledged${by}${note}`,
    );
    add(a.id, a.clearedAt, "cleared", "Cleared", `Cleared: ${a.rule} on ${on}`);
  }
  for (const c of comments) {
    const by = c.author ? `, ${c.author}` : "";
    add(c.id, c.at, "comment", cut(c.text), `Comment on ${nameOf(c.channelKey)}${by}: ${c.text}`);
  }
  return marks.sort((x, y) => x.at - y.at).slice(-MAX_MARKS);
}

/** A mark's tooltip: its time in the zone, then its story. */
export const markTitle = (mark: ChartMark, zone: string) => `${formatStamp(mark.at, zone)}: ${mark.text}`;

/** Each kind's colour: red raised, amber acknowledged, green cleared, blue a person's comment. */
export const MARK_COLORS: Record<MarkKind, string> = {
  triggered: "#c62828",
  acknowledged: "#b26a00",
  cleared: "#2e7d32",
  comment: "#1565c0",
};
