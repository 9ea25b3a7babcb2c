import { formatDateTime } from "../../src/domain/dates.ts";
import type { EpochSeconds } from "../../src/domain/brand.ts";
import type { ReportSummary } from "../../src/api/reportBuilder.ts";
import { WINDOW_PRESETS } from "../../src/stores/reports.ts";

/** A report's window in words: a preset's name, 'Last N hours/days', or its fixed start and end. */
export function windowText(r: Pick<ReportSummary, "timeInterval" | "startDate" | "endDate">, zone: string) {
  if (r.timeInterval > 0) {
    const preset = WINDOW_PRESETS.find((p) => p.seconds === r.timeInterval);
    if (preset) return preset.label;
    const hours = r.timeInterval / 3600;
    return hours % 24 === 0 ? `Last ${hours / 24} days` : `Last ${+hours.toFixed(2)} hours`;
  }
  const at = (s: number | null) => (s === null ? "?" : formatDateTime(s as EpochSeconds, zone));
  return `${at(r.startDate)} to ${at(r.endDate)}`;
}

/** The link's state as the list says it. */
export function linkText(r: ReportSummary) {
  if (!r.link) return "Not shared";
  return { live: "Live", paused: "Paused", expired: "Expired" }[r.link.state];
}
