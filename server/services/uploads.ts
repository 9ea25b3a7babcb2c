import { createHash, randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/*
 * Purchase-order files (spec section 5: doc, docx, xml, txt, png, jpg, csv). A file is taken
 * only when its name's extension, the type the browser declared and its content all agree,
 * and its size is within bounds: an executable renamed .png or .txt is refused by its bytes.
 * Files are kept under DATA_DIR/uploads by a random name; the client's name is never a path.
 */

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export const UPLOAD_MESSAGES = {
  missing: "Choose the purchase order file.",
  type: "The purchase order file must be a doc, docx, xml, txt, png, jpg or csv file.",
  content: "The purchase order file's content does not match its type.",
  empty: "The purchase order file is empty.",
  size: "The purchase order file is larger than 10 MB.",
} as const;

type Kind = "doc" | "docx" | "xml" | "txt" | "png" | "jpg" | "csv";

/** Per kind: the extensions, the declared types browsers send, the canonical type, the content test. */
const KINDS: Record<
  Kind,
  { ext: string[]; declared: string[]; type: string; sniff: (b: Uint8Array) => boolean }
> = {
  png: { ext: ["png"], declared: ["image/png"], type: "image/png", sniff: (b) => starts(b, PNG) },
  jpg: {
    ext: ["jpg", "jpeg"],
    declared: ["image/jpeg", "image/pjpeg"],
    type: "image/jpeg",
    sniff: (b) => starts(b, JPEG),
  },
  doc: {
    ext: ["doc"],
    declared: ["application/msword"],
    type: "application/msword",
    sniff: (b) => starts(b, OLE2),
  },
  docx: {
    ext: ["docx"],
    declared: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    sniff: (b) => starts(b, ZIP) && contains(b, "word/"),
  },
  xml: {
    ext: ["xml"],
    declared: ["application/xml", "text/xml"],
    type: "application/xml",
    sniff: (b) => isText(b) && /^\s*</.test(textOf(b)),
  },
  txt: { ext: ["txt"], declared: ["text/plain"], type: "text/plain", sniff: isText },
  csv: {
    ext: ["csv"],
    declared: ["text/csv", "application/csv", "text/plain", "application/vnd.ms-excel"],
    type: "text/csv",
    sniff: isText,
  },
};

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP = [0x50, 0x4b, 0x03, 0x04];

function starts(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((m, i) => bytes[i] === m);
}

function contains(bytes: Uint8Array, ascii: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(ascii, 0, "latin1");
}

const textOf = (b: Uint8Array) => new TextDecoder("utf-8").decode(b.subarray(0, 4096));

/**
 * Plain text: valid UTF-8 (a BOM allowed) with no control characters but tab, line breaks and
 * form feed, and no '#!' interpreter line (a script is a program, not a purchase order).
 */
function isText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  return !hasControl(text, TEXT_CONTROLS) && !text.replace(/^\uFEFF/, "").startsWith("#!");
}

/** Tab, line feed, form feed and carriage return: the control characters text may hold. */
const TEXT_CONTROLS = new Set([9, 10, 12, 13]);

/** Does the text hold a C0 control character (or DEL) other than the allowed ones? */
function hasControl(text: string, allowed: ReadonlySet<number> = new Set()): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 32 || code === 127) && !allowed.has(code)) return true;
  }
  return false;
}

/**
 * The client's file name, safe to show: control characters, path separators and broken
 * text replaced, its last 200 characters counted whole (an emoji is never cut in half).
 */
export function displayName(name: string): string {
  return Array.from(name, (ch) =>
    hasControl(ch) || ch === "/" || ch === "\\" || !ch.isWellFormed() ? "_" : ch,
  )
    .slice(-200)
    .join("");
}

/** A file as the form sent it. */
export interface IncomingFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** An accepted file: its canonical type and a name safe to show (never used as a path). */
export type UploadCheck =
  { ok: true; contentType: string; fileName: string } | { ok: false; message: string };

/** Checks declared type, sniffed content and size together. */
export function checkUpload(file: IncomingFile): UploadCheck {
  const ext = /\.([A-Za-z0-9]{1,5})$/.exec(file.name)?.[1]?.toLowerCase() ?? "";
  const kind = (Object.keys(KINDS) as Kind[]).find((k) => KINDS[k].ext.includes(ext));
  const declared = file.type.split(";")[0]!.trim().toLowerCase();
  if (!kind || !KINDS[kind].declared.includes(declared)) return { ok: false, message: UPLOAD_MESSAGES.type };
  if (file.bytes.byteLength === 0) return { ok: false, message: UPLOAD_MESSAGES.empty };
  if (file.bytes.byteLength > MAX_UPLOAD_BYTES) return { ok: false, message: UPLOAD_MESSAGES.size };
  if (!KINDS[kind].sniff(file.bytes)) return { ok: false, message: UPLOAD_MESSAGES.content };
  const fileName = displayName(file.name);
  return { ok: true, contentType: KINDS[kind].type, fileName };
}

/** A file written to disk: where (relative to DATA_DIR), its size and SHA-256. */
export interface StoredUpload {
  storedPath: string;
  size: number;
  sha256: string;
  /** Deletes the file again (its order was not placed). */
  discard(): Promise<void>;
}

/** Writes the bytes to DATA_DIR/uploads/{128 random bits}, readable by the server's user only. */
export async function storeUpload(dataDir: string, bytes: Uint8Array): Promise<StoredUpload> {
  const dir = join(dataDir, "uploads");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const storedPath = join("uploads", randomBytes(16).toString("hex"));
  const full = join(dataDir, storedPath);
  await writeFile(full, bytes, { flag: "wx", mode: 0o600 });
  return {
    storedPath,
    size: bytes.byteLength,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    discard: () => rm(full, { force: true }),
  };
}
