import type { PublicReport, ReportData } from "../api/reports.ts";
import { findGaps } from "../domain/chartGaps.ts";
import { gapSummary } from "../domain/gapSummary.ts";
import { activeAlarmLines } from "../domain/reportAlarms.ts";
import { $reportMarks } from "../stores/reportMarks.ts";
import { element } from "./paint.ts";

/*
 * The public report's lines in words around the chart (the newcomer's review of 2026-11-29):
 * the alarms active now above it, the stretches without data under its legend. A box with no
 * line is hidden.
 */

function fill(box: HTMLElement, lines: string[]) {
  box.hidden = lines.length === 0;
  box.replaceChildren(...lines.map((text) => element("p", text)));
}

/** "Alarm on Cold Room – Temperature since …", one line per alarm of the window not cleared. */
export function paintAlarms(box: HTMLElement, report: PublicReport, zone: string) {
  fill(
    box,
    activeAlarmLines($reportMarks.get().alarms, (k) => report.sensorMap[k]?.name, zone),
  );
}

/** "No data: Incubator – Temperature, …", one line per band the chart marks. */
export function paintGaps(box: HTMLElement, report: PublicReport, data: ReportData, zone: string) {
  const window = { from: data.start, to: data.end };
  const lines = data.series.map((s) => ({
    name: report.sensorMap[s.channelKey]?.name ?? s.channelKey,
    gaps: findGaps(s.points, window, s.bucketSeconds),
  }));
  fill(box, gapSummary(lines, zone));
}
