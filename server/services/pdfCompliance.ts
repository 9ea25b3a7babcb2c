import { epochSeconds } from "../../src/domain/brand.ts";
import { formatDate, formatTime } from "../../src/domain/dayText.ts";
import { formatDuration } from "../../src/domain/reportText.ts";
import { BLACK, contentWidth, GREY, room, type Doc } from "./pdfDoc.ts";

// The audit PDF's "Compliance" section (after the channels, before anything added later): per
// channel its mean kinetic temperature (temperatures only), minimum and maximum with their
// times, time in each threshold range, the excursions and the longest; then the SHA-256 of the
// window's CSV, which `sha256sum` of the downloaded CSV reproduces.

/** One channel's figures, values already in the visitor's scale. */
export interface PdfComplianceChannel {
  name: string;
  unit: string;
  mkt: number | null;
  min: { value: number; at: number } | null;
  max: { value: number; at: number } | null;
  /** Time spent in each of the channel's threshold ranges. */
  ranges: readonly { name: string; seconds: number; excursions: number }[];
  excursions: number;
  longest: { range: string; start: number; end: number; duration: number } | null;
  /** Time the readings cover, for the shares of time in range. */
  seconds: number;
}

export interface PdfCompliance {
  /** kJ/mol. */
  activationEnergy: number;
  channels: readonly PdfComplianceChannel[];
  sha256: string;
  /** What the hash covers: "°F, times in America/New_York". */
  csvOf: string;
}

const when = (at: number, zone: string) =>
  `${formatDate(epochSeconds(at), zone)} ${formatTime(epochSeconds(at), zone)}`;

const withUnit = (v: number, unit: string) => `${v}${unit ? ` ${unit}` : ""}`;
const share = (part: number, whole: number) =>
  whole > 0 ? ` (${((100 * part) / whole).toFixed(part && part < whole ? 2 : 0)} %)` : "";

/** The section: a heading, a block per channel, and the data's SHA-256. */
export function complianceSection(doc: Doc, c: PdfCompliance, zone: string, left: number) {
  room(doc, 90);
  doc.moveDown(0.5).fillColor(BLACK).font("Helvetica-Bold").fontSize(13).text("Compliance", left);
  doc.font("Helvetica").fontSize(9).fillColor(GREY);
  doc.text(`Mean kinetic temperature with an activation energy of ${c.activationEnergy} kJ/mol.`, left);
  doc.fillColor(BLACK).moveDown(0.4);
  for (const ch of c.channels) channelBlock(doc, ch, zone, left);
  room(doc, 40);
  doc
    .moveDown(0.3)
    .font("Helvetica-Bold")
    .fontSize(9)
    .text(`Data SHA-256: ${c.sha256}`, left, doc.y, {
      width: contentWidth(doc),
    });
  doc.font("Helvetica").fillColor(GREY);
  doc.text(`The SHA-256 of this range's CSV export (${c.csvOf}), as sha256sum computes it.`, left);
  doc.fillColor(BLACK);
}

function channelBlock(doc: Doc, ch: PdfComplianceChannel, zone: string, left: number) {
  room(doc, 60);
  doc.font("Helvetica-Bold").fontSize(10).text(ch.name, left);
  doc.font("Helvetica").fontSize(9);
  if (!ch.min || !ch.max) return void doc.text("No readings in this range.", left).moveDown(0.5);
  if (ch.mkt !== null) doc.text(`Mean kinetic temperature: ${withUnit(ch.mkt, ch.unit)}`, left);
  doc.text(
    `Minimum ${withUnit(ch.min.value, ch.unit)} at ${when(ch.min.at, zone)}   Maximum ${withUnit(ch.max.value, ch.unit)} at ${when(ch.max.at, zone)}`,
    left,
  );
  for (const r of ch.ranges)
    doc.text(
      `Time in ${r.name}: ${r.seconds ? `${formatDuration(r.seconds)}${share(r.seconds, ch.seconds)}` : "none"}, ${r.excursions} excursion${r.excursions === 1 ? "" : "s"}`,
      left,
    );
  const longest = ch.longest
    ? `, the longest ${formatDuration(ch.longest.duration)} in ${ch.longest.range} from ${when(ch.longest.start, zone)} to ${when(ch.longest.end, zone)}`
    : "";
  // A channel without threshold ranges has no excursions to count.
  if (ch.ranges.length) doc.text(`Excursions: ${ch.excursions}${longest}`, left);
  doc.moveDown(0.5);
}
