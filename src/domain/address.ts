/*
 * The Shipping/Billing Address dialog's rules (spec sections 3, 4 and 5): which regions the
 * State field offers, what a country change clears, and whether the form changed at all.
 */

/** Country ids with a State dropdown (spec section 3: 1 US, 4 Canada). */
export const COUNTRY_US = 1;
export const COUNTRY_CANADA = 4;

type Region = readonly [code: string, name: string];

/** US states, the District of Columbia and the territories, by their postal codes. */
export const US_REGIONS: readonly Region[] = [
  ["AL", "Alabama"],
  ["AK", "Alaska"],
  ["AS", "American Samoa"],
  ["AZ", "Arizona"],
  ["AR", "Arkansas"],
  ["CA", "California"],
  ["CO", "Colorado"],
  ["CT", "Connecticut"],
  ["DE", "Delaware"],
  ["DC", "District of Columbia"],
  ["FL", "Florida"],
  ["GA", "Georgia"],
  ["GU", "Guam"],
  ["HI", "Hawaii"],
  ["ID", "Idaho"],
  ["IL", "Illinois"],
  ["IN", "Indiana"],
  ["IA", "Iowa"],
  ["KS", "Kansas"],
  ["KY", "Kentucky"],
  ["LA", "Louisiana"],
  ["ME", "Maine"],
  ["MD", "Maryland"],
  ["MA", "Massachusetts"],
  ["MI", "Michigan"],
  ["MN", "Minnesota"],
  ["MS", "Mississippi"],
  ["MO", "Missouri"],
  ["MT", "Montana"],
  ["NE", "Nebraska"],
  ["NV", "Nevada"],
  ["NH", "New Hampshire"],
  ["NJ", "New Jersey"],
  ["NM", "New Mexico"],
  ["NY", "New York"],
  ["NC", "North Carolina"],
  ["ND", "North Dakota"],
  ["MP", "Northern Mariana Islands"],
  ["OH", "Ohio"],
  ["OK", "Oklahoma"],
  ["OR", "Oregon"],
  ["PA", "Pennsylvania"],
  ["PR", "Puerto Rico"],
  ["RI", "Rhode Island"],
  ["SC", "South Carolina"],
  ["SD", "South Dakota"],
  ["TN", "Tennessee"],
  ["TX", "Texas"],
  ["UM", "U.S. Minor Outlying Islands"],
  ["VI", "U.S. Virgin Islands"],
  ["UT", "Utah"],
  ["VT", "Vermont"],
  ["VA", "Virginia"],
  ["WA", "Washington"],
  ["WV", "West Virginia"],
  ["WI", "Wisconsin"],
  ["WY", "Wyoming"],
];

/** Canadian provinces and territories. */
export const CANADA_REGIONS: readonly Region[] = [
  ["AB", "Alberta"],
  ["BC", "British Columbia"],
  ["MB", "Manitoba"],
  ["NB", "New Brunswick"],
  ["NL", "Newfoundland and Labrador"],
  ["NT", "Northwest Territories"],
  ["NS", "Nova Scotia"],
  ["NU", "Nunavut"],
  ["ON", "Ontario"],
  ["PE", "Prince Edward Island"],
  ["QC", "Quebec"],
  ["SK", "Saskatchewan"],
  ["YT", "Yukon"],
];

/** The regions the State dropdown offers for a country, or null where State is free text. */
export function regionsOf(countryId: number | null): readonly Region[] | null {
  if (countryId === COUNTRY_US) return US_REGIONS;
  if (countryId === COUNTRY_CANADA) return CANADA_REGIONS;
  return null;
}

/** The address form's values as typed (spec section 3, Address, less id and attention). */
export interface AddressDraft {
  companyName: string;
  contactName: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  zipCode: string;
  countryId: number | null;
}

export const EMPTY_DRAFT: AddressDraft = {
  companyName: "",
  contactName: "",
  line1: "",
  line2: "",
  city: "",
  state: "",
  zipCode: "",
  countryId: null,
};

/** The form's values for a stored address (null fields read as empty; no address, an empty form). */
export function draftOf(
  address: {
    companyName: string | null;
    contactName: string | null;
    line1: string | null;
    line2: string | null;
    city: string | null;
    state: string | null;
    zipCode: string | null;
    country: { id: number } | null;
  } | null,
): AddressDraft {
  if (!address) return EMPTY_DRAFT;
  return {
    companyName: address.companyName ?? "",
    contactName: address.contactName ?? "",
    line1: address.line1 ?? "",
    line2: address.line2 ?? "",
    city: address.city ?? "",
    state: address.state ?? "",
    zipCode: address.zipCode ?? "",
    countryId: address.country?.id ?? null,
  };
}

export type DraftField = Exclude<keyof AddressDraft, "countryId">;

/**
 * The draft after one field is typed. Changing the country clears state and city (spec
 * section 4): a region or city of the old country means nothing in the new one.
 */
export function editDraft(draft: AddressDraft, change: Partial<AddressDraft>): AddressDraft {
  const next = { ...draft, ...change };
  if ("countryId" in change && change.countryId !== draft.countryId) return { ...next, state: "", city: "" };
  return next;
}

/** Do two drafts name the same address? Spaces at the ends do not count as a change. */
export function sameAddress(a: AddressDraft, b: AddressDraft): boolean {
  return (Object.keys(a) as (keyof AddressDraft)[]).every((k) => {
    const x = a[k];
    const y = b[k];
    return typeof x === "string" && typeof y === "string" ? x.trim() === y.trim() : x === y;
  });
}

/** Same recipient: company and contact names alike, case and end spaces aside (server/flows/quotePricing.ts). */
export function sameRecipient(
  a: { companyName: string | null; contactName: string | null },
  b: { companyName: string | null; contactName: string | null },
): boolean {
  const same = (x: string | null, y: string | null) =>
    (x ?? "").trim().toLowerCase() === (y ?? "").trim().toLowerCase();
  return same(a.companyName, b.companyName) && same(a.contactName, b.contactName);
}

/**
 * A draft as an address card shows it: the country named from the list (or from the address it
 * was edited from), empty fields as absent. The form has no Attention or phone field: they carry
 * over from the address it was edited from while the recipient stays the same, as the server
 * stores the order's address.
 */
export function addressOf(
  draft: AddressDraft,
  countries: readonly { id: number; name: string; code: string }[],
  from: {
    companyName?: string | null;
    contactName?: string | null;
    attention?: string | null;
    phoneNumber?: string | null;
    country: { id: number; name: string; code: string } | null;
  } | null,
) {
  const listed = countries.find((c) => c.id === draft.countryId);
  const kept = from?.country?.id === draft.countryId ? from.country : null;
  const country = listed ? { id: listed.id, name: listed.name, code: listed.code } : kept;
  const orNull = (s: string) => s.trim() || null;
  const recipient = { companyName: orNull(draft.companyName), contactName: orNull(draft.contactName) };
  const carried =
    from &&
    sameRecipient(recipient, { companyName: from.companyName ?? null, contactName: from.contactName ?? null })
      ? from
      : null;
  return {
    id: 0,
    ...recipient,
    attention: carried?.attention ?? null,
    line1: orNull(draft.line1),
    line2: orNull(draft.line2),
    city: orNull(draft.city),
    state: orNull(draft.state),
    zipCode: orNull(draft.zipCode),
    country,
    phoneNumber: carried?.phoneNumber ?? null,
  };
}
