import { DEFAULT_CSV_NAME } from "../../src/api/deviceData.ts";

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The Content-Disposition of a device download: "Lab Base Station 2026-11-21 to
 * 2026-11-22.csv" in UTF-8 (RFC 5987), with a plain ASCII fallback; 'device-data.csv' when
 * the device's name leaves nothing printable.
 */
export function csvFileName(file: { name: string; start: Date; end: Date }): string {
  const clean = file.name
    .replace(/[\p{Cc}\\/:*?"<>|]+/gu, " ")
    .trim()
    .replace(/\s+/g, " ")
    .slice(0, 80);
  const ascii = clean
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/[%;,'`]/g, "")
    .trim();
  if (!clean) return `attachment; filename="${DEFAULT_CSV_NAME}"`;
  const range = `${day(file.start)} to ${day(file.end)}`;
  const fallback = ascii ? `${ascii} ${range}.csv` : DEFAULT_CSV_NAME;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${rfc5987(`${clean} ${range}.csv`)}`;
}

/** Percent-encoding for filename*: encodeURIComponent leaves ' ( ) * as they are. */
const rfc5987 = (text: string) =>
  encodeURIComponent(text).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
