import { parsePublicOrderRef } from "./order.ts";
import { parseQuoteNumber } from "./quote.ts";

export type RecordKind = "order" | "quote";

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
    return ref ? { referrer: `ord-${ref.id}`, signedInPath: `/s/order/details/${ref.id}` } : null;
  }
  const id = parseQuoteNumber(last);
  return id === null ? null : { referrer: `quo-${id}`, signedInPath: `/s/quotes/details/QUO-${id}` };
}
