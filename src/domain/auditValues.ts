// What an audit row keeps of a change: the fields that changed, before and after, and never a
// secret (docs/decisions.md, "Audit trail").
import { canonical } from "./canonicalJson.ts";
import { cardDigits, luhnValid } from "./card.ts";

/** Field names whose values are secrets: dropped from every audit row, whatever the action. */
const SECRET_FIELD =
  /password|secret|token|cvv|cvc|cardnumber|card_number|apikey|devicekey|^key$|^code$|otp|signature/i;
/**
 * A run of 13 to 19 digits (spaces or dashes between), not part of a longer run: a card number
 * when it passes the Luhn check, as every card number does. Other long numbers (a GTIN, a lot,
 * a serial) mostly do not, and stay as typed.
 */
const DIGIT_RUN = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;
export const REDACTED = "[redacted]";

/**
 * Text with each card number in it replaced by "[redacted …1234]" (its last four digits, as a
 * receipt prints it): the words around it stay, so the record stays named, and two texts with
 * different cards still read differently.
 */
export function withoutCards(text: string): string {
  return text.replace(DIGIT_RUN, (run) => {
    const digits = cardDigits(run);
    return luhnValid(digits) ? `[redacted …${digits.slice(-4)}]` : run;
  });
}

/**
 * Text as PostgreSQL stores it: without NUL (no text or jsonb holds one) and with a lone
 * surrogate as U+FFFD (what UTF-8 makes of it). A row is hashed as it will read back, so odd
 * text neither fails its change nor leaves a row that no longer fits its hash.
 */
export const storable = (text: string): string => text.replaceAll("\u0000", "").toWellFormed();

/** The value with secret fields dropped and card numbers in text replaced, at every level. */
export function withoutSecrets(value: unknown, cards = true): unknown {
  if (typeof value === "string") return storable(cards ? withoutCards(value) : value);
  if (Array.isArray(value)) return value.map((v) => withoutSecrets(v, cards));
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === "object") {
    const kept: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      if (!SECRET_FIELD.test(k) && v !== undefined) kept[storable(k)] = withoutSecrets(v, cards);
    return kept;
  }
  return value;
}

/** Equal as data: keys in any order. */
const same = (a: unknown, b: unknown) => canonical(a ?? null) === canonical(b ?? null);

/**
 * The fields that differ between before and after (either may be absent: a creation has no
 * before, a deletion no after), secrets left out, an unchanged name kept to name the record.
 * Null when nothing changed.
 */
export function changes(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): { old: Record<string, unknown> | null; new: Record<string, unknown> | null } | null {
  const b = withoutSecrets(before) as Record<string, unknown> | null;
  const a = withoutSecrets(after) as Record<string, unknown> | null;
  if (!b || !a) return b || a ? { old: b, new: a } : null;
  // What changed is judged on the values as typed (secret fields left out): a change that only
  // a card number's redaction hides is still recorded, its values as redacted.
  const typedB = withoutSecrets(before, false) as Record<string, unknown>;
  const typedA = withoutSecrets(after, false) as Record<string, unknown>;
  const old: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(b), ...Object.keys(a)]))
    if (!same(typedB[k], typedA[k])) {
      old[k] = b[k] ?? null;
      now[k] = a[k] ?? null;
    }
  if (!Object.keys(old).length) return null;
  // The record's name stays on a row that changed something else: the viewer names the report
  // or schedule by it ("Report: Cold chain"), and shows no line for a field that did not change.
  if (!("name" in old) && typeof a["name"] === "string" && same(typedB["name"], typedA["name"]))
    return { old: { name: b["name"], ...old }, new: { name: a["name"], ...now } };
  return { old, new: now };
}

/**
 * A visitor's address as the owner's trail names it: the first letter and the domain
 * ("j***@example.com"). The visitor gave it to hear of alarms, not to be known to the owner.
 */
export function maskedAddress(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  return `${email[0]}***${email.slice(at)}`;
}
