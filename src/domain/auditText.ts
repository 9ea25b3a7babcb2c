// How the audit trail reads to a person, in the viewer and in the CSV export.

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

/** A recorded value as text: null as "(none)", objects and lists as compact JSON. */
export function valueText(v: unknown): string {
  if (v === null || v === undefined || v === "") return "(none)";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

/** One line per changed field: its name, the old and the new value. */
export function changeLines(
  old: Record<string, unknown> | null,
  now: Record<string, unknown> | null,
): { field: string; from: string; to: string }[] {
  const fields = [...new Set([...Object.keys(old ?? {}), ...Object.keys(now ?? {})])];
  return fields.map((field) => ({
    field,
    from: old ? valueText(old[field]) : "(none)",
    to: now ? valueText(now[field]) : "(none)",
  }));
}

/** The changes in one cell of text: "name: Freezer → Freezer 2; label: (none) → Door". */
export const changesText = (old: Record<string, unknown> | null, now: Record<string, unknown> | null) =>
  changeLines(old, now)
    .map((l) => `${l.field}: ${l.from} → ${l.to}`)
    .join("; ");

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
];

/**
 * The record a row is about, for the viewer ("Report 12", "QUO-1001"); null when the row's
 * device or person already names it, or it has none.
 */
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

/** The CSV's record cell: "Report 12", "QUO-1001", "Device 5"; the bare id when nothing names it. */
export function recordCell(action: string, entityType: number | null, entityId: string | null): string {
  if (entityId === null) return "";
  const kind = entityType === null ? undefined : ENTITY_NAMES[entityType];
  return recordText(action, entityId) ?? (kind ? `${kind} ${entityId}` : entityId);
}

export function recordText(action: string, entityId: string | null): string | null {
  if (entityId === null) return null;
  if (/^(QUO|ORD)-\d+$/.test(entityId)) return entityId;
  const kind = RECORD_KINDS.find(([prefix]) => action.startsWith(prefix))?.[1];
  return kind ? `${kind} ${entityId}` : null;
}
