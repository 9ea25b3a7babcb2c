import QRCode from "qrcode";
import SVGtoPDF from "svg-to-pdfkit";
import { epochSeconds } from "../../src/domain/brand.ts";
import { MAX_GAP_MARKS, NO_DATA, type Gap } from "../../src/domain/chartGaps.ts";
import { formatDate, formatTime } from "../../src/domain/dayText.ts";
import type { ChartMark } from "../../src/domain/chartMarks.ts";
import { alarmList } from "./pdfAlarms.ts";
import { complianceSection, type PdfCompliance } from "./pdfCompliance.ts";
import { BLACK, contentWidth, GREY, openPdf, room, table, type Doc } from "./pdfDoc.ts";

// The audit PDF of a shared report (pdfkit): what an auditor files. The chart is the same
// ECharts server SVG the page shows, drawn as vectors by svg-to-pdfkit, so the PDF and the
// page never disagree about the picture; statistics and excursions follow as text.

/** One channel's lines of the PDF, values already in the visitor's scale and units. */
export interface PdfChannel {
  name: string;
  color: string;
  /** "°F", "%", or "" */
  unit: string;
  stats: { min: number; max: number; avg: number } | null;
  secondsOutside: number;
  excursions: readonly { range: string; start: number; end: number; duration: number; worst: number }[];
  /** Stretches of the range without readings (src/domain/chartGaps.ts findGaps), in time order. */
  gaps: readonly Gap[];
}

export interface ReportPdfFacts {
  title: string;
  /** Epoch seconds. */
  start: number;
  end: number;
  zone: string;
  generatedAt: number;
  /** The live report's address, also as a QR code. */
  liveUrl: string;
  /** The chart (ECharts SVG) and its own size in pixels. */
  svg: string;
  svgWidth: number;
  svgHeight: number;
  channels: readonly PdfChannel[];
  /** Alarms and pinned comments (server/services/pdfAlarms.ts); the list is left out when absent. */
  marks?: readonly ChartMark[];
  /** The compliance figures and the data's SHA-256 (pdfCompliance.ts). */
  compliance?: PdfCompliance;
}

const MARGIN = 40;

/** "3 d 4 h", "1 h 40 min", "12 min", "30 s". */
export function durationText(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d) return h ? `${d} d ${h} h` : `${d} d`;
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  if (m) return `${m} min`;
  return `${seconds} s`;
}

/** 'Mar 08, 2026 1:59 AM' in the zone. */
const when = (at: number, zone: string) =>
  `${formatDate(epochSeconds(at), zone)} ${formatTime(epochSeconds(at), zone)}`;

/** The PDF as bytes. */
export async function reportPdf(facts: ReportPdfFacts): Promise<Buffer> {
  const qr = await QRCode.toBuffer(facts.liveUrl, { margin: 1, width: 240, errorCorrectionLevel: "M" });
  const { doc, bytes } = openPdf({
    title: facts.title,
    createdAt: new Date(facts.generatedAt * 1000),
    margin: MARGIN,
  });
  header(doc, facts, qr);
  chart(doc, facts);
  for (const ch of facts.channels) channel(doc, ch, facts.zone);
  if (!facts.channels.length)
    doc.font("Helvetica").fontSize(10).text("No sensor channels currently available.");
  if (facts.marks) alarmList(doc, facts.marks, facts.zone);
  if (facts.compliance) complianceSection(doc, facts.compliance, facts.zone, MARGIN);
  doc.end();
  return bytes;
}

/** Title, range, zone, generation time, and the QR code of the live report at the top right. */
function header(doc: Doc, f: ReportPdfFacts, qr: Buffer) {
  const qrSize = 78;
  const textWidth = contentWidth(doc) - qrSize - 12;
  doc.image(qr, doc.page.width - MARGIN - qrSize, MARGIN, { width: qrSize });
  doc.font("Helvetica-Bold").fontSize(18).text(f.title, MARGIN, MARGIN, { width: textWidth });
  doc.moveDown(0.3).font("Helvetica").fontSize(10).fillColor(GREY);
  doc.text(`Range: ${when(f.start, f.zone)} to ${when(f.end, f.zone)}`, { width: textWidth });
  doc.text(`Time zone: ${f.zone}`, { width: textWidth });
  doc.text(`Generated: ${when(f.generatedAt, f.zone)}`, { width: textWidth });
  doc.text(`Live report: ${f.liveUrl}`, { width: textWidth, link: f.liveUrl });
  doc.fillColor(BLACK);
  doc.y = Math.max(doc.y, MARGIN + qrSize) + 12;
}

/** The ECharts SVG at the page's width. */
function chart(doc: Doc, f: ReportPdfFacts) {
  const width = contentWidth(doc);
  const height = (width * f.svgHeight) / f.svgWidth;
  const top = doc.y;
  SVGtoPDF(doc as unknown as Parameters<typeof SVGtoPDF>[0], f.svg, MARGIN, top, {
    width,
    height,
    preserveAspectRatio: "xMinYMin meet",
  });
  doc.y = top + height + 10;
  doc.x = MARGIN;
}

const EXCURSION_COLUMNS = [
  { header: "Threshold", x: 0 },
  { header: "Start", x: 120 },
  { header: "End", x: 250 },
  { header: "Duration", x: 380 },
  { header: "Worst", x: 450 },
];

const number = (v: number, unit: string) => `${v}${unit ? ` ${unit}` : ""}`;

/** A channel's statistics, its time in threshold ranges and its excursions as a table. */
function channel(doc: Doc, ch: PdfChannel, zone: string) {
  room(doc, 60);
  const y = doc.y;
  doc.rect(MARGIN, y + 3, 8, 8).fill(ch.color);
  doc
    .fillColor(BLACK)
    .font("Helvetica-Bold")
    .fontSize(12)
    .text(ch.name, MARGIN + 14, y);
  doc.font("Helvetica").fontSize(10);
  const stats = ch.stats
    ? `Minimum ${number(ch.stats.min, ch.unit)}   Maximum ${number(ch.stats.max, ch.unit)}   Average ${number(ch.stats.avg, ch.unit)}`
    : "No readings in this range.";
  doc.text(stats, MARGIN);
  // Without readings there is no time inside or outside a range to state.
  if (!ch.stats) return void doc.moveDown(0.8);
  gapLines(doc, ch.gaps, zone);
  const outside = ch.secondsOutside ? durationText(ch.secondsOutside) : "none";
  doc.text(`Time in threshold ranges: ${outside}`, MARGIN);
  if (!ch.excursions.length) {
    doc.fillColor(GREY).text("No excursions.", MARGIN).fillColor(BLACK).moveDown(0.8);
    return;
  }
  doc.moveDown(0.3);
  const rows = ch.excursions.map((e) => [
    e.range,
    when(e.start, zone),
    when(e.end, zone),
    durationText(e.duration),
    number(e.worst, ch.unit),
  ]);
  table(doc, EXCURSION_COLUMNS, rows, { width: 515 });
  doc.moveDown(0.8);
}

/** 'No data from … to … (2 h)' per stretch without readings (the chart's hatched bands), the first MAX_GAP_MARKS. */
function gapLines(doc: Doc, gaps: readonly Gap[], zone: string) {
  for (const g of gaps.slice(0, MAX_GAP_MARKS))
    doc.text(
      `${NO_DATA} from ${when(g.from, zone)} to ${when(g.to, zone)} (${durationText(g.to - g.from)})`,
      MARGIN,
    );
  const more = gaps.length - MAX_GAP_MARKS;
  if (more > 0) doc.text(`${NO_DATA} in ${more} more stretch${more === 1 ? "" : "es"} of the range.`, MARGIN);
}
