import type { Mail } from "./mail.ts";
import { KIND_TEXT, type RuleKind, valueText } from "../../src/domain/alerts.ts";
import { formatDateTime } from "../../src/domain/dates.ts";
import type { EpochSeconds } from "../../src/domain/brand.ts";

/** Whose scale and time zone a message is written in. */
export interface Prefs {
  scale: "C" | "F";
  timeZone: string;
}
export interface MailReader {
  reader(userId: number | null): Promise<Prefs | null>;
}

/** What a message says of its alarm (data/alarms.ts AlarmView has it all). */
export interface AlarmView {
  ruleName: string;
  kind: string;
  severity: string;
  deviceId: number;
  deviceName: string;
  channelName: string | null;
  channelKind: string | null;
  units: string | null;
  value: number | null;
  limit: number | null;
  since: Date;
  acknowledgedBy: string | null;
}

const WHAT: Record<string, string> = {
  triggered: "ALARM",
  repeated: "STILL IN ALARM",
  escalated: "ESCALATED",
  cleared: "CLEARED",
  acknowledged: "ACKNOWLEDGED",
};
const secondsOf = (d: Date) => Math.floor(d.getTime() / 1000) as EpochSeconds;

/** "Freezer 2 - Temperature" or the device alone for device rules. */
function where(alarm: AlarmView) {
  return alarm.channelName ? `${alarm.deviceName} - ${alarm.channelName}` : alarm.deviceName;
}

function condition(alarm: AlarmView, prefs: Prefs): string {
  const kind = alarm.kind as RuleKind;
  if (kind === "offline") return "The device has not pushed readings within its interval and grace.";
  if (kind === "stale") return "A sensor has not reported for two hours.";
  if (kind === "battery")
    return `A sensor's battery is low (${alarm.value ?? "?"}%) and it is not plugged in.`;
  const value = valueText(alarm.channelKind, alarm.units, alarm.value, prefs.scale);
  const limit = valueText(alarm.channelKind, alarm.units, alarm.limit, prefs.scale);
  return `Reading ${value}, ${KIND_TEXT[kind]} the limit ${limit}.`;
}

/** One alarm's message: what, where, the value and limit, since when, and the links. */
export function alarmMail(input: {
  to: string;
  alarm: AlarmView;
  event: { kind: string; at: Date; note: string | null; byUser: string | null };
  prefs: Prefs;
  origin: string;
  ackToken: string | null;
  now: Date;
}): Mail {
  const { alarm, event, prefs, origin } = input;
  const when = (d: Date) => `${formatDateTime(secondsOf(d), prefs.timeZone)} (${prefs.timeZone})`;
  const head = `[${WHAT[event.kind] ?? event.kind}] ${alarm.ruleName}: ${where(alarm)}`;
  const lines = [
    `${head}`,
    "",
    `Severity: ${alarm.severity}`,
    condition(alarm, prefs),
    `Since: ${when(alarm.since)}`,
    ...(event.kind === "cleared" ? [`Cleared: ${when(event.at)}`] : []),
    ...(alarm.acknowledgedBy ? [`Acknowledged by ${alarm.acknowledgedBy}`] : []),
    "",
    `Device: ${origin}/s/devices/${alarm.deviceId}`,
    `All alarms: ${origin}/s/alerts`,
  ];
  const expires = input.ackToken ? new Date(input.now.getTime() + 7 * 86_400_000) : undefined;
  if (input.ackToken)
    lines.push(
      "",
      "Acknowledge (opens a page where you write what was done):",
      `${origin}/alerts/acknowledge?token=${input.ackToken}`,
    );
  return {
    to: input.to,
    subject: head,
    text: lines.join("\n"),
    ...(expires ? { secretUntil: expires } : {}),
  };
}

/** Several alarms for one person at once: one message listing them all. */
export function digestMail(to: string, parts: { mail: Mail }[]): Mail {
  const body = parts.map((p, i) => `${i + 1}. ${p.mail.text}`).join("\n\n----------------\n\n");
  const until = parts.map((p) => p.mail.secretUntil?.getTime() ?? 0).reduce((a, b) => Math.max(a, b), 0);
  return {
    to,
    subject: `[ALARMS] ${parts.length} alarm notices`,
    text: `${parts.length} alarm notices arrived together; each is below.\n\n${body}`,
    ...(until ? { secretUntil: new Date(until) } : {}),
  };
}
