// The chart's "No data" bands in words, under the legend (the review of 2026-11-29: a band
// covers the chart's whole height though one channel is silent, and has no label on a phone).
import { chartGaps, NO_DATA, type Gap } from "./chartGaps.ts";
import { formatStamp } from "./reportText.ts";

/** "Nov 29, 2026, 3:00 AM – 4:00 AM", or both stamps in full when the days differ. */
export function spanText(gap: Gap, zone: string): string {
  const from = formatStamp(gap.from, zone);
  const to = formatStamp(gap.to, zone);
  const day = (s: string) => s.split(", ").slice(0, 2).join(", ");
  return day(from) === day(to) ? `${from} – ${to.split(", ").slice(2).join(", ")}` : `${from} – ${to}`;
}

/**
 * One line per band the chart marks, in time order: "No data: Incubator – Temperature, Nov 29,
 * 2026, 3:00 AM – 4:00 AM"; "No data on any channel, …" when every line is silent.
 */
export function gapSummary(lines: readonly { name: string; gaps: readonly Gap[] }[], zone: string): string[] {
  return chartGaps(lines).map((g) => {
    const who =
      g.names.length >= lines.length ? `${NO_DATA} on any channel` : `${NO_DATA}: ${g.names.join(", ")}`;
    return `${who}, ${spanText(g, zone)}`;
  });
}
