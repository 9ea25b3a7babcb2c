import PdfKit from "pdfkit";

// The pieces every PDF of the portal shares (pdfkit): the document and its bytes, the
// letterhead, label/value lines, tables that break across pages. The report, receipt and
// quote PDFs draw with these so they look alike and a fix lands in all three.

export type Doc = InstanceType<typeof PdfKit>;

export const BRAND = "Device Portal";
export const GREY = "#555555";
export const BLACK = "#000000";

/** A new A4 document with its metadata, and its bytes once `doc.end()` is called. */
export function openPdf(o: { title: string; createdAt: Date; margin: number }): {
  doc: Doc;
  bytes: Promise<Buffer>;
} {
  const doc = new PdfKit({
    size: "A4",
    margin: o.margin,
    info: { Title: o.title, Author: BRAND, CreationDate: o.createdAt },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  return { doc, bytes };
}

/** The width between the margins. */
export const contentWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

/** Starts a new page when fewer than `needed` points are left above the bottom margin. */
export function room(doc: Doc, needed: number) {
  if (doc.y + needed > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

/** The document's title in bold with the portal's name under it in grey. */
export function letterhead(doc: Doc, title: string) {
  doc.font("Helvetica-Bold").fontSize(20).text(title);
  doc.font("Helvetica").fontSize(11).fillColor(GREY).text(BRAND).moveDown(1.5).fillColor(BLACK);
}

/** Lines of a bold label and its value beside it ("Order   ORD-5003"). */
export function labelValues(doc: Doc, rows: readonly (readonly [string, string])[], labelWidth = 140) {
  const left = doc.page.margins.left;
  for (const [label, value] of rows) {
    room(doc, 20);
    const y = doc.y;
    doc.font("Helvetica-Bold").text(label, left, y, { width: labelWidth });
    doc.font("Helvetica").text(value, left + labelWidth + 4, y);
    doc.moveDown(0.6);
  }
}

/** The text cut to fit `width` at the current font, ending in '…' when cut. */
export function fit(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let end = text.length;
  while (end > 0 && doc.widthOfString(`${text.slice(0, end).trimEnd()}…`) > width) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

export interface TableColumn {
  header: string;
  /** Offset from the left margin, in points. */
  x: number;
  align?: "left" | "right";
}

/**
 * A table: a bold header row (unless `header: false`), then one line per row, each cell one
 * text run cut to its column (no wrapping, so a cell never pushes the next row down or runs
 * into the next column), a new page when the page is full.
 */
export function table(
  doc: Doc,
  columns: readonly TableColumn[],
  rows: readonly (readonly string[])[],
  o: { width: number; fontSize?: number; rowHeight?: number; header?: boolean },
) {
  const left = doc.page.margins.left;
  const line = (cells: readonly string[], bold: boolean) => {
    room(doc, (o.rowHeight ?? 13) + 3);
    const top = doc.y;
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(o.fontSize ?? 9);
    columns.forEach((col, i) => {
      const width = (columns[i + 1]?.x ?? o.width) - col.x - 6;
      doc.text(fit(doc, cells[i] ?? "", width), left + col.x, top, {
        width,
        lineBreak: false,
        align: col.align ?? "left",
      });
    });
    doc.x = left;
    doc.y = top + (o.rowHeight ?? 13);
  };
  if (o.header !== false)
    line(
      columns.map((c) => c.header),
      true,
    );
  for (const r of rows) line(r, false);
}
