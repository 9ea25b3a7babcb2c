import type { RecordKind } from "./publicRecord.ts";

// Apart from publicRecord.ts, which the sign-in page loads: only the pay-as-guest page needs it.
/**
 * A pay-as-guest address that carries only a record's number ("QUO-1001", "ORD-5001",
 * "1001"): numbers are sequential, so they never open a payment page; the page says which
 * link does instead of reporting an error. Returns the number as people read it, or null.
 */
export function numberOnlyRecord(kind: RecordKind, id: string): string | null {
  const m = /^\s*(?:(quo|ord)[\s#:._-]*)?(\d{1,12})\s*$/i.exec(id);
  if (!m || (m[1] && m[1].toLowerCase() !== (kind === "order" ? "ord" : "quo"))) return null;
  return `${kind === "order" ? "ORD" : "QUO"}-${m[2]}`;
}
