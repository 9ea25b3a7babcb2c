/** The lookup's only failure message, the same for a wrong number and a wrong name. */
export const RECORD_NOT_FOUND = "Record not found.";

/** Contact names compare ignoring case and extra spaces. */
export function normalizeContact(name: string): string {
  return name.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * Where a found record opens (spec section 2): an identifier containing 'ord' (any case) is
 * an order, anything else a quote.
 */
export function lookupPath(resourceUri: string): string {
  const kind = /ord/i.test(resourceUri) ? "order" : "quote";
  return `/p/${kind}/${encodeURIComponent(resourceUri)}`;
}
