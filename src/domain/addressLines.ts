/** What a quote or an order shows where it names no address (spec section 2). */
export const NO_ADDRESS = "No Address";

/** The parts of an address its label is written from. */
export interface AddressParts {
  companyName?: string | null;
  contactName?: string | null;
  attention?: string | null;
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  state?: string | null;
  zipCode?: string | null;
  phoneNumber?: string | null;
}

/**
 * An address as its label is written, one line each (empty parts left out): company,
 * contact, 'Attn: …', street lines, 'City, ST 12345', country, phone. None without an
 * address. The page and the quote PDF write it alike.
 */
export function addressLines(a: AddressParts | null, country: string | null | undefined): string[] {
  if (!a) return [];
  const cityLine = [a.city, [a.state, a.zipCode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  const lines = [
    a.companyName,
    a.contactName,
    a.attention && `Attn: ${a.attention}`,
    a.line1,
    a.line2,
    cityLine,
    country,
    a.phoneNumber,
  ];
  return lines.filter((line): line is string => Boolean(line));
}
