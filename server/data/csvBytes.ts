import { celsius } from "../../src/domain/brand.ts";
import { isTemperatureKind } from "../../src/domain/device.ts";
import { fromCelsius, type TemperatureScale } from "../../src/domain/temperature.ts";
import { zoneOffsets } from "../../src/domain/zoneOffsets.ts";
import { offsetText } from "../../src/domain/zoneTime.ts";

/*
 * CSV lines written as bytes into one buffer per chunk, for the exports that write a year of
 * rows (the report CSV, hashed for the PDF): no string per line, no string per time, and each
 * distinct cell formatted once. The text is exactly what the shared rules produce
 * (src/domain/zoneTime.ts `iso`, src/domain/temperature.ts rounding): every byte written here
 * is ASCII (digits, signs, '.', ',', ':', 'T', 'e', CR LF), so a byte is a character.
 */

/** A chunk's bytes, grown as needed. */
export class AsciiOut {
  bytes: Buffer;
  at = 0;
  constructor(size: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(64, size));
  }
  /** Makes room for `n` more bytes. */
  room(n: number) {
    if (this.at + n <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + n));
    this.bytes.copy(bigger, 0, 0, this.at);
    this.bytes = bigger;
  }
  /** An ASCII text; the caller made room. */
  text(s: string) {
    const b = this.bytes;
    let at = this.at;
    for (let i = 0; i < s.length; i++) b[at++] = s.charCodeAt(i);
    this.at = at;
  }
  byte(c: number) {
    this.bytes[this.at++] = c;
  }
  /** 0-99 as two digits. */
  two(n: number) {
    this.bytes[this.at++] = 48 + Math.floor(n / 10);
    this.bytes[this.at++] = 48 + (n % 10);
  }
  /** The bytes written. */
  done(): Uint8Array {
    return this.bytes.subarray(0, this.at);
  }
}

/** The most bytes a time takes ("2026-03-08T01:59:00-05:00"), and a cell (String of any number). */
export const TIME_BYTES = 25;
export const CELL_BYTES = 25;

/** Days from 0000-01-01 to 1970-01-01, and from 1970 to 10000-01-01: where ISO text keeps 4-digit years. */
const FIRST_DAY = -719_528;
const END_DAY = 2_932_897;

/**
 * Writes a time (epoch seconds) as zoneClock's `iso` does, "2026-03-08T01:59:00-05:00": the
 * date text is made once a day, the offset text once per offset.
 */
export function isoWriter(zone: string): (out: AsciiOut, at: number) => void {
  const offsetOf = zoneOffsets(zone);
  let shift = Number.NaN;
  let shiftText = "";
  let day = Number.NaN;
  let dayText = "";
  return (out, at) => {
    const s = offsetOf(at);
    if (s !== shift) [shift, shiftText] = [s, offsetText(s)];
    const wall = Math.floor(at) + s;
    const d = Math.floor(wall / 86_400);
    if (d !== day) [day, dayText] = [d, new Date(d * 86_400_000).toISOString().slice(0, 11)];
    if (d < FIRST_DAY || d >= END_DAY) {
      out.text(new Date(wall * 1000).toISOString().slice(0, 19) + shiftText);
      return;
    }
    const inDay = wall - d * 86_400;
    out.text(dayText);
    out.two(Math.floor(inDay / 3600));
    out.byte(58);
    out.two(Math.floor((inDay % 3600) / 60));
    out.byte(58);
    out.two(inDay % 60);
    out.text(shiftText);
  };
}

/** Distinct readings a column keeps the text of: temperatures have a few thousand; others may have more. */
const KEPT_TEXTS = 50_000;

/**
 * Writes a column's cell for a raw reading: the adjusted reading, temperatures converted and
 * rounded as the spec says (C 2, F 1 decimals), others to 4 decimals ("+ 0" turns -0 into 0).
 * Each distinct reading is converted and formatted once.
 */
export function cellWriter(
  column: { kind: string; adjust: number },
  scale: TemperatureScale,
): (out: AsciiOut, v: number) => void {
  const { adjust } = column;
  const shown = isTemperatureKind(column.kind)
    ? (v: number) => fromCelsius(celsius(v + adjust), scale) + 0
    : (v: number) => Math.round((v + adjust) * 10_000) / 10_000 + 0;
  const texts = new Map<number, string>();
  return (out, v) => {
    let text = texts.get(v);
    if (text === undefined) {
      text = String(shown(v));
      // -0 and 0 share a key, and a text: both read 0 once adjusted and rounded ("+ 0").
      if (texts.size < KEPT_TEXTS) texts.set(v, text);
    }
    out.text(text);
  };
}
