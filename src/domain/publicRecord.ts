import { parsePublicOrderRef } from "./order.ts";
import { appPath } from "./appPaths.ts";
import { parseQuoteNumber, quoteNumber } from "./quote.ts";

export type RecordKind = "order" | "quote";

const REFERRER_PREFIX: Record<RecordKind, string> = { order: "ord", quote: "quo" };
const REFERRER = /^(ord|quo)-(\d{1,12})$/i;

/** The registration referrer of a record: 'ord-{id}' or 'quo-{id}' (spec section 7). */
export function referrerFor(kind: RecordKind, id: number): string {
  return `${REFERRER_PREFIX[kind]}-${id}`;
}

/** Reads a referrer back into the record it names, or null when it names none. */
export function parseReferrer(text: string | null | undefined): { kind: RecordKind; id: number } | null {
  const m = REFERRER.exec(text ?? "");
  const id = Number(m?.[2]);
  // Record ids are PostgreSQL integers.
  if (!m || id < 1 || id > 2_147_483_647) return null;
  return { kind: m[1]!.toLowerCase() === "ord" ? "order" : "quote", id };
}

/**
 * From a public order or quote address: the referrer recorded at registration and the
 * signed-in detail page a signed-in visitor is sent to (spec section 4).
 */
export function publicRecordLinks(
  kind: RecordKind,
  pathname: string,
): { referrer: string; signedInPath: string } | null {
  const last = decodeURIComponent(pathname.replace(/\/+$/, "").split("/").pop() ?? "");
  if (kind === "order") {
    const ref = parsePublicOrderRef(last);
    return ref
      ? { referrer: referrerFor("order", ref.id), signedInPath: appPath("orderDetails", { id: ref.id }) }
      : null;
  }
  const id = parseQuoteNumber(last);
  return id === null
    ? null
    : {
        referrer: referrerFor("quote", id),
        signedInPath: appPath("quoteDetails", { number: quoteNumber(id) }),
      };
}
