/** Card expiry years: the current year plus 29 further years (30 in all). */
export function cardExpiryYears(currentYear: number): number[] {
  return Array.from({ length: 30 }, (_, i) => currentYear + i);
}

/** Expiry months '01' to '12'; '01' is the default. */
export const CARD_EXPIRY_MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, "0"));

/** The year is sent as its last two digits. */
export function twoDigitYear(year: number): string {
  return String(year % 100).padStart(2, "0");
}

/** Accepted purchase-order file types. */
export const PO_FILE_EXTENSIONS = ["doc", "docx", "xml", "txt", "png", "jpg", "csv"] as const;
