import { markTitle, MARK_COLORS, type ChartMark } from "../../src/domain/chartMarks.ts";
import { BLACK, contentWidth, GREY, room, type Doc } from "./pdfDoc.ts";

// The PDF's "Alarms and comments" (issue 36), after the channels' excursions: each alarm's
// trigger, acknowledgement and clearing and each pinned comment, in time order and in the
// report's zone, the same marks the chart draws (notes and names only where the owner shows them).

export const ALARMS_TITLE = "Alarms and comments";

/** The list, or a line saying there was nothing, at the document's left margin. */
export function alarmList(doc: Doc, marks: readonly ChartMark[], zone: string) {
  const left = doc.page.margins.left;
  const width = contentWidth(doc) - 14;
  room(doc, 50);
  doc.fillColor(BLACK).font("Helvetica-Bold").fontSize(12).text(ALARMS_TITLE, left);
  doc.font("Helvetica").fontSize(10);
  if (!marks.length) {
    doc.fillColor(GREY).text("No alarms or comments in this range.", left).fillColor(BLACK);
    return;
  }
  for (const mark of marks) {
    const text = markTitle(mark, zone);
    room(doc, doc.heightOfString(text, { width }) + 4);
    const top = doc.y;
    doc.rect(left, top + 2, 6, 6).fill(MARK_COLORS[mark.kind]);
    doc.fillColor(BLACK).text(text, left + 14, top, { width });
    doc.moveDown(0.15);
  }
  doc.x = left;
}
