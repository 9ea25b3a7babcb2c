/** The lookup's only failure message, the same for a wrong number and a wrong name. */
export const RECORD_NOT_FOUND = "Record not found.";

export const ENTER_NUMBER = "Enter the quote or order number (QUO- or ORD- and digits).";
export const ENTER_CONTACT = "Enter the contact name on the quote or order.";

/** What an empty lookup field asks for, per field, before anything is sent. */
export function missingLookupFields(id: string, contact: string): { field: string; message: string }[] {
  return [
    ...(id.trim() ? [] : [{ field: "id", message: ENTER_NUMBER }]),
    ...(contact.trim() ? [] : [{ field: "contact", message: ENTER_CONTACT }]),
  ];
}

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

/**
 * A number as people type it: "ord 5004", "ORD5004", "ord #5004", "quo: 1001" read as
 * "ORD-5004" / "QUO-1001"; anything else is left as typed (and will not be found).
 */
export function normalizeRecordNumber(text: string): string {
  const m = /^\s*(ord|quo)[\s#:._-]*(\d{1,12})\s*$/i.exec(text);
  return m ? `${m[1]!.toUpperCase()}-${m[2]}` : text.trim();
}
