// The public report's line for alarms active now (the review of 2026-11-29: a visitor who got
// an "[ALARM]" mail found only a small "Ack" mark on the chart, and no words saying so).
import { formatStamp } from "./reportText.ts";

/** What the line needs of an alarm (src/api/chartMarks.ts AlarmStoryView has it). */
export interface ActiveAlarmFacts {
  channelKey: string | null;
  device: string;
  kind: string;
  triggeredAt: number;
  acknowledgedAt: number | null;
  clearedAt: number | null;
}

const DEVICE_KINDS: Record<string, string> = {
  offline: "not reporting",
  stale: "a sensor not reporting",
  battery: "low battery",
};

/**
 * One sentence per alarm not yet cleared, oldest first: "Alarm on Cold Room – Temperature since
 * Nov 29, 2026, 11:52 AM (acknowledged)". A channel is named as the report's legend names it;
 * a device alarm by its device and what is wrong.
 */
export function activeAlarmLines(
  alarms: readonly ActiveAlarmFacts[],
  channelName: (channelKey: string) => string | undefined,
  zone: string,
): string[] {
  return alarms
    .filter((a) => a.clearedAt === null)
    .sort((a, b) => a.triggeredAt - b.triggeredAt)
    .map((a) => {
      const subject =
        a.channelKey === null
          ? `${a.device} (${DEVICE_KINDS[a.kind] ?? a.kind})`
          : (channelName(a.channelKey) ?? a.device);
      const acked = a.acknowledgedAt === null ? "" : " (acknowledged)";
      return `Alarm on ${subject} since ${formatStamp(a.triggeredAt, zone)}${acked}`;
    });
}
