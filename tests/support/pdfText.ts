import { inflateSync } from "node:zlib";

/**
 * The text a PDF made by pdfkit shows, one line per text operation: its content streams are
 * inflated and the strings of `Tj`/`TJ` read (pdfkit writes standard-font text as hex,
 * WinAnsi-encoded). Enough for tests to assert what a PDF says, not a general PDF reader.
 */
export function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  const raw = pdf.toString("latin1");
  // Each stream is cut by its dictionary's /Length, never by searching for "endstream": a
  // compressed stream may end in a 0x0d byte, which a `\r?\nendstream` pattern would take away
  // (one PDF in 256 then read as empty).
  const streams = /\/Length (\d+)[^>]*>>\s*stream\r?\n/g;
  const found = [...raw.matchAll(streams)];
  // A stream this pattern missed would silently drop its text.
  if (found.length !== raw.split("\nendstream").length - 1)
    throw new Error("pdfText: a stream without /Length");
  for (const match of found) {
    const start = match.index + match[0].length;
    const body = raw.slice(start, start + Number(match[1]));
    let content: string;
    try {
      content = inflateSync(Buffer.from(body, "latin1")).toString("latin1");
    } catch {
      content = body;
    }
    for (const [, ops] of content.matchAll(/\[((?:<[0-9a-fA-F]*>|\([^)]*\)|[\s\d.-])*)\]\s*TJ/g))
      out.push(decode(ops!));
    for (const [, hex] of content.matchAll(/(<[0-9a-fA-F]*>)\s*Tj/g)) out.push(decode(hex!));
  }
  return out.join("\n");
}

/** The strings of a TJ array or a Tj operand, hex or literal, joined. */
function decode(ops: string): string {
  let text = "";
  for (const [, hex, literal] of ops.matchAll(/<([0-9a-fA-F]*)>|\(([^)]*)\)/g))
    text += hex !== undefined ? Buffer.from(hex, "hex").toString("latin1") : literal;
  return text.replace(/\x97/g, "—").replace(/\x96/g, "–");
}
