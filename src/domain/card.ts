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

/** Messages of the card fields (the spec leaves their wording open; see docs/decisions.md). */
export const CARD_MESSAGES = {
  number: "Enter a valid card number.",
  cvv: "Enter the 3 or 4 digit security code.",
  month: "Choose the expiry month.",
  year: "Choose the expiry year.",
  expired: "Your card has expired.",
  declined: "Your card was declined.",
  wrongCvv: "Your card's security code is incorrect.",
  processing: "An error occurred while processing your card. Try again in a little while.",
} as const;

/** The card number's digits, spaces and dashes taken out. */
export const cardDigits = (text: string) => text.replace(/[\s-]/g, "");

/** The Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The card brand from its number's prefix (shown with the last four digits, never more). */
export function cardBrand(digits: string): string {
  if (digits.startsWith("4")) return "Visa";
  if (/^(5[1-5]|2[2-7])/.test(digits)) return "Mastercard";
  if (/^3[47]/.test(digits)) return "American Express";
  if (/^6(011|5)/.test(digits)) return "Discover";
  return "Card";
}

/** Is the card still valid in the given month? A card is valid through the end of its month. */
export function cardExpired(month: number, twoDigit: number, now: Date): boolean {
  const year = 2000 + twoDigit;
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() + 1;
  return year < y || (year === y && month < m);
}

/**
 * Which field an expired card's message belongs beside: the month when the year is this one
 * (the year is right, the month is past: the spec's default 01 most of the year), else the year.
 */
export function expiredField(twoDigit: number, now: Date): "cardExpirationMonth" | "cardExpirationYear" {
  return 2000 + twoDigit === now.getUTCFullYear() ? "cardExpirationMonth" : "cardExpirationYear";
}

/** What a card form hands over: the fields of spec section 5, the year in full (sent as two digits). */
export interface CardInput {
  cardNumber: string;
  cardExpirationMonth: string;
  cardExpirationYear: number;
  cardCvv: string;
  /** Asked on public views only; empty elsewhere. */
  email: string;
}

/** The card fields as the payment calls send them: the year as its last two digits. */
export function cardFields(card: CardInput) {
  return {
    cardNumber: card.cardNumber,
    cardExpirationMonth: card.cardExpirationMonth,
    cardExpirationYear: twoDigitYear(card.cardExpirationYear),
    cardCvv: card.cardCvv,
    email: card.email,
  };
}

/** The browser's message when a payment got no answer (network failure, timeout). */
export const PAYMENT_NETWORK_ERROR = "Unexpected error processing payment.";
