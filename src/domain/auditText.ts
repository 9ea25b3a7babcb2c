// How the audit trail reads to a person, in the viewer and in the CSV export.
import { fieldName, valueText } from "./auditFields.ts";

export { fieldName, valueText };

/** What each recorded action is called; an action missing here reads as its own name. */
export const ACTION_NAMES: Record<string, string> = {
  "device.rename": "Renamed a device",
  "device.link.create": "Shared a device page",
  "device.link.replace": "Replaced a device page's link",
  "device.link.delete": "Removed a device page's link",
  "sensor.update": "Changed sensor settings",
  "session.signin": "Signed in",
  "session.signin.failed": "Failed sign-in",
  "session.signin.refused": "Sign-in refused",
  "session.otp.failed": "Wrong one-time code",
  "session.signout": "Signed out",
  "audit.export": "Exported the audit trail",
  "device.location": "Moved a device",
  "device.download": "Downloaded device data",
  "tag.create": "Created a tag",
  "tag.rename": "Renamed a tag",
  "tag.delete": "Deleted a tag",
  "tag.apply": "Changed a device's tags",
  "user.terms": "Accepted the terms",
  "user.settings": "Changed their settings",
  "user.otp.on": "Turned the one-time passcode on",
  "user.otp.off": "Turned the one-time passcode off",
  "user.remembered.forget": "Forgot remembered browsers",
  "user.password.reset": "Set a new password",
  "session.end-others": "Signed out other browsers",
  "member.add": "Gave a person access",
  "member.add.refused": "Access not given (already a member)",
  "member.invite": "Invited a person",
  "alert.rule.create": "Created an alert rule",
  "alert.rule.change": "Changed an alert rule",
  "alert.rule.delete": "Deleted an alert rule",
  "alert.acknowledge": "Acknowledged an alarm",
  "alert.device.mute": "Muted a device's alerts",
  "order.payment": "Paid an order",
  "ops.quote.create": "Back office made a quote",
  "ops.quote.change": "Back office changed a quote",
  "ops.quote.close": "Back office closed a quote",
  "ops.order.ship": "Back office shipped an order",
  "ops.order.payment": "Back office recorded a payment",
  "ops.tracking.add": "Back office added tracking",
  "report.create": "Created a report",
  "report.change": "Changed a report",
  "report.delete": "Deleted a report",
  "report.link.create": "Shared a report",
  "report.link.replace": "Replaced a report's link",
  "report.link.change": "Changed a report's link",
  "report.link.delete": "Stopped sharing a report",
  "report.export": "Downloaded a report",
  "report.schedule.create": "Scheduled a report",
  "report.schedule.change": "Changed a report schedule",
  "report.schedule.delete": "Deleted a report schedule",
  "report.schedule.sent": "Mailed a scheduled report",
  "report.schedule.failed": "Gave up mailing a scheduled report",
  "report.schedule.unsubscribe": "Unsubscribed from a scheduled report",
  "report.visitor.confirm": "A visitor subscribed to a report",
  "report.visitor.unsubscribe": "A visitor unsubscribed from a report",
  "chart.comment.create": "Pinned a chart comment",
  "chart.comment.delete": "Deleted a chart comment",
  "quote.order": "Ordered a quote",
  "alert.repeat": "Repeated an alarm's notice",
  "alert.escalate": "Escalated an alarm",
};

export const actionName = (action: string) => ACTION_NAMES[action] ?? action;

const NONE = "(none)";

/** One field of a row in words; `from` is null on a row with no before (a creation, an event). */
export interface ChangeLine {
  field: string;
  from: string | null;
  to: string | null;
}

/**
 * One line per field that changed: its name and the old and new value in words. A field whose
 * old and new read the same (an unchanged name kept to name the record, a null on both sides)
 * is left out; on a creation or an event only the values it has are listed.
 */
export function changeLines(
  old: Record<string, unknown> | null,
  now: Record<string, unknown> | null,
  zone?: string,
): ChangeLine[] {
  const fields = [...new Set([...Object.keys(old ?? {}), ...Object.keys(now ?? {})])];
  const lines: ChangeLine[] = [];
  for (const key of fields) {
    const from = old ? valueText(old[key], key, zone) : null;
    const to = now ? valueText(now[key], key, zone) : null;
    if (from === to || (from ?? NONE) === (to ?? NONE)) continue;
    lines.push({ field: fieldName(key), from, to });
  }
  return lines;
}

/** Actions whose row says what was asked for (an export's filters), not what changed. */
const REQUEST_LABELS: Record<string, string> = {
  "audit.export": "Filters",
  "report.export": "Asked for",
  "device.download": "Asked for",
};

/**
 * What a row says: a request's "Filters: Person ana@x.org, From ..." or its list of changes,
 * whose moments read in `viewerZone` when given. A request keeps its times in UTC beside the
 * zone its export was asked in ("(times in Europe/Berlin)").
 */
export function entryText(
  action: string,
  old: Record<string, unknown> | null,
  now: Record<string, unknown> | null,
  viewerZone?: string,
): { request: string } | { changes: ChangeLine[] } {
  const label = REQUEST_LABELS[action];
  if (label === undefined) return { changes: changeLines(old, now, viewerZone) };
  const { timezone, timeZone, ...rest } = now ?? {};
  const asked = Object.entries(rest)
    .filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(([k, v]) => `${fieldName(k)} ${k === "action" ? actionName(String(v)) : valueText(v, k)}`);
  const zone = timezone ?? timeZone;
  const zoneText = typeof zone === "string" && zone ? ` (times in ${zone})` : "";
  return { request: `${label}: ${asked.length ? asked.join(", ") : "none"}${zoneText}` };
}

/** A row's words in one cell: "Name: Freezer → Freezer 2; Label: Door", or its request. */
export function changesText(
  old: Record<string, unknown> | null,
  now: Record<string, unknown> | null,
  action = "",
): string {
  const text = entryText(action, old, now);
  if ("request" in text) return text.request;
  return text.changes
    .map((l) => `${l.field}: ${l.from === null || l.to === null ? (l.from ?? l.to) : `${l.from} → ${l.to}`}`)
    .join("; ");
}

/** The kind of record an action's id names, by the action's family (longest prefix first). */
const RECORD_KINDS: [prefix: string, kind: string][] = [
  ["report.schedule.", "Schedule"],
  ["report.", "Report"],
  ["chart.comment.", "Comment"],
  ["alert.rule.", "Alert rule"],
  ["alert.acknowledge", "Alarm"],
  ["alert.repeat", "Alarm"],
  ["alert.escalate", "Alarm"],
  ["tag.", "Tag"],
  // Named only when the row carries the sensor's name: its key names nothing a person knows.
  ["sensor.", "Sensor"],
];

/** The spec's entity types in words, for a record no action family names. */
const ENTITY_NAMES: Record<number, string> = {
  1: "Alert",
  2: "Subscription",
  3: "Device",
  4: "Sensor",
  5: "User",
  6: "Message",
  8: "Threshold range",
  11: "Membership",
};

/** The CSV's record cell: "Report: Cold chain", "QUO-1001", "Device 5"; the bare id when nothing names it. */
export function recordCell(
  action: string,
  entityType: number | null,
  entityId: string | null,
  name: string | null = null,
): string {
  if (entityId === null) return "";
  const kind = entityType === null ? undefined : ENTITY_NAMES[entityType];
  return recordText(action, entityId, name) ?? (kind ? `${kind} ${entityId}` : entityId);
}

/**
 * The record a row is about, for the viewer: "Report: Cold chain" when the row carries the
 * record's name, else "Report 12"; "QUO-1001"; null when the row's device or person names it.
 */
export function recordText(
  action: string,
  entityId: string | null,
  name: string | null = null,
): string | null {
  if (entityId === null) return null;
  if (/^(QUO|ORD)-\d+$/.test(entityId)) return entityId;
  const kind = RECORD_KINDS.find(([prefix]) => action.startsWith(prefix))?.[1];
  if (!kind || (kind === "Sensor" && !name)) return null;
  return name ? `${kind}: ${name}` : `${kind} ${entityId}`;
}

/** The name a row carries for its record (after the change, or before a deletion), if any. */
export function recordName(old: Record<string, unknown> | null, now: Record<string, unknown> | null) {
  const name = now?.["name"] ?? old?.["name"];
  return typeof name === "string" && name ? name : null;
}

/** The viewer's answer when the From day is after the To day (nothing can match). */
export const DATES_BACKWARDS = "The From date is after the To date. Swap them to see the days between.";

/** True when both days are set (YYYY-MM-DD) and From comes after To. */
export const datesBackwards = (from: string, to: string) => from !== "" && to !== "" && from > to;
