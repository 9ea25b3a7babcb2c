// What an audit row keeps of a change: the fields that changed, before and after, and never a
// secret (docs/decisions.md, "Audit trail").

/** Field names whose values are secrets: dropped from every audit row, whatever the action. */
const SECRET_FIELD =
  /password|secret|token|cvv|cvc|cardnumber|card_number|apikey|devicekey|^key$|^code$|otp|signature/i;
/** A value that looks like a card number (13 to 19 digits, spaces or dashes between). */
const CARD_LIKE = /\b(?:\d[ -]?){12,18}\d\b/;
export const REDACTED = "[redacted]";

/**
 * Text as PostgreSQL stores it: without NUL (no text or jsonb holds one) and with a lone
 * surrogate as U+FFFD (what UTF-8 makes of it). A row is hashed as it will read back, so odd
 * text neither fails its change nor leaves a row that no longer fits its hash.
 */
export const storable = (text: string): string => text.replaceAll("\u0000", "").toWellFormed();

/** The value with secret fields dropped and card-like text replaced, at every level. */
export function withoutSecrets(value: unknown): unknown {
  if (typeof value === "string") return CARD_LIKE.test(value) ? REDACTED : storable(value);
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === "object") {
    const kept: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      if (!SECRET_FIELD.test(k) && v !== undefined) kept[storable(k)] = withoutSecrets(v);
    return kept;
  }
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

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
  const old: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(b), ...Object.keys(a)]))
    if (!same(b[k], a[k])) {
      old[k] = b[k] ?? null;
      now[k] = a[k] ?? null;
    }
  if (!Object.keys(old).length) return null;
  // The record's name stays on a row that changed something else: the viewer names the report
  // or schedule by it ("Report: Cold chain"), and shows no line for a field that did not change.
  if (!("name" in old) && typeof a["name"] === "string" && same(b["name"], a["name"]))
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
