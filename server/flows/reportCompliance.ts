// A report window's compliance figures and the SHA-256 of its data, read together in one pass
// over the raw readings: the pass is the CSV export itself (data/reportCsv.ts), so the hash in
// the PDF is the hash of the very bytes the CSV link downloads for the same window, scale and
// zone, and the figures come from the same readings (every raw reading, not the chart's buckets).
import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { chartChannels, type ReportChannel, type ReportThreshold } from "../data/reports.ts";
import { reportCsvStream, type ReportCsvPlan } from "../data/reportCsv.ts";
import { secondsOfMicros, type ReadingRun } from "../data/readingRuns.ts";
import { ComplianceTally, type ComplianceFigures } from "../../src/domain/compliance.ts";
import type { PdfCompliance } from "../services/pdfCompliance.ts";
import { valueIn } from "./reportView.ts";
import { isTemperatureKind, unitIn } from "../../src/domain/device.ts";
import type { TimeWindow } from "../../src/domain/reportWindow.ts";
import type { TemperatureScale } from "../../src/domain/temperature.ts";
import { zoneClock } from "../../src/domain/zoneTime.ts";

/** The CSV of a report's window as the CSV link serves it: every channel of the report, in order. */
export function reportCsvPlan(
  channels: readonly ReportChannel[],
  range: TimeWindow,
  scale: TemperatureScale,
  zone: string,
): ReportCsvPlan {
  return {
    columns: channels.map((ch) => ({
      channelId: ch.channelId,
      kind: ch.kind,
      adjust: ch.adjust,
      title: ch.name,
      units: ch.units,
    })),
    start: range.start,
    end: range.end,
    scale,
    clock: zoneClock(zone),
  };
}

export interface WindowDigest {
  /** Lower-case hex SHA-256 of the CSV file's bytes (byte-order mark and header included). */
  sha256: string;
  /** By channel id, for the channels asked for. */
  figures: Map<number, ComplianceFigures>;
}

/**
 * Streams the window's CSV into a hash while a tally per asked channel reads the same rows
 * (adjusted readings, Celsius for temperatures), with the report's threshold ranges and ΔH.
 */
export async function windowDigest(
  db: Db,
  plan: ReportCsvPlan,
  asked: readonly ReportChannel[],
  thresholds: readonly ReportThreshold[],
  activationEnergy: number,
): Promise<WindowDigest> {
  const tallies = chartChannels(asked, thresholds).map((c, i) => ({
    column: plan.columns.findIndex((col) => col.channelId === c.channelId),
    channelId: c.channelId,
    adjust: c.adjust,
    tally: new ComplianceTally({
      activationEnergy,
      gapSeconds: c.gapSeconds,
      ranges: c.ranges,
      temperature: isTemperatureKind(asked[i]!.kind),
    }),
  }));
  // Each tally reads the first column of its channel.
  const byColumn = plan.columns.map((_, c) => tallies.filter((t) => t.column === c));
  const watch = (column: number, run: ReadingRun, count: number) => {
    const { micros, values } = run;
    for (const t of byColumn[column] ?? [])
      for (let i = 0; i < count; i++) t.tally.add(secondsOfMicros(micros[i]!), values[i]! + t.adjust);
  };
  const hash = createHash("sha256");
  for await (const part of reportCsvStream(db, { ...plan, watch })) hash.update(part);
  return {
    sha256: hash.digest("hex"),
    figures: new Map(tallies.map((t) => [t.channelId, t.tally.figures()])),
  };
}

const round2 = (v: number) => Math.round(v * 100) / 100 + 0;

/** The PDF's compliance section: the figures in the visitor's scale, ranges named, and the hash. */
export function pdfComplianceOf(
  asked: readonly ReportChannel[],
  thresholds: readonly ReportThreshold[],
  digest: WindowDigest,
  o: { scale: TemperatureScale; zone: string; activationEnergy: number },
): PdfCompliance {
  const rangeName = new Map(thresholds.map((t) => [t.id, t.name]));
  return {
    activationEnergy: o.activationEnergy,
    sha256: digest.sha256,
    csvOf: `${o.scale === "C" ? "°C" : "°F"}, times in ${o.zone}`,
    channels: asked.map((ch) => {
      const f = digest.figures.get(ch.channelId)!;
      const temperature = isTemperatureKind(ch.kind);
      const convert = temperature ? valueIn(ch.kind, o.scale) : round2;
      // The MKT keeps two decimals in either scale: it is the figure an auditor compares.
      const mkt = f.mkt === null ? null : round2(o.scale === "C" ? f.mkt : (f.mkt * 9) / 5 + 32);
      const extreme = (e: ComplianceFigures["min"]) => (e ? { value: convert(e.value), at: e.at } : null);
      return {
        name: ch.name,
        unit: unitIn(ch.kind, ch.units, o.scale),
        mkt,
        min: extreme(f.min),
        max: extreme(f.max),
        ranges: f.ranges.map((r) => ({
          name: rangeName.get(r.rangeId) ?? "",
          seconds: r.seconds,
          excursions: r.excursions,
        })),
        excursions: f.excursions,
        longest: f.longest && { ...f.longest, range: rangeName.get(f.longest.rangeId) ?? "" },
        seconds: f.seconds,
      };
    }),
  };
}
