import type { FieldError } from "../core/errors.ts";
import { cents, type Cents } from "../../src/domain/brand.ts";

/** Where a parcel goes: the fields a carrier's rate call needs (country as its ISO code). */
export interface RateAddress {
  line1: string;
  city: string;
  state: string;
  countryCode: string;
  zip: string;
}

/** A carrier service and its price for one parcel (spec section 3, Shipping option). */
export interface RateOption {
  serviceCode: string;
  name: string;
  carrierName: string;
  serviceName: string;
  price: Cents;
  isDisabled: boolean;
}

/** Rates for an address, or the address's problems as field errors (zip, line1, city, country). */
export type RateAnswer = { ok: true; options: RateOption[] } | { ok: false; errors: FieldError[] };

/** Shipping rates: the built-in rate table today, a carrier's rating API later. */
export interface ShippingRates {
  /** The options for sending `itemCount` items (total quantity) to the address. */
  rates(address: RateAddress, itemCount: number): Promise<RateAnswer>;
}

/** A row of the built-in rate table (shipping_options). */
export interface RateRow {
  serviceCode: string;
  name: string;
  carrierName: string;
  serviceName: string;
  basePrice: Cents;
  perItemPrice: Cents;
  isDisabled: boolean;
}

export const SHIPPING_MESSAGES = {
  line1: "Enter the street address.",
  city: "Enter the city.",
  zipUS: "Enter a valid ZIP code.",
  zipCA: "Enter a valid postal code.",
  zip: "Enter the postal code.",
  country: "We cannot ship to this country.",
} as const;

/** The postal-code rules the built-in table knows; other countries need one, in any form. */
const POSTAL: Record<string, { pattern: RegExp; message: string }> = {
  US: { pattern: /^\d{5}(-\d{4})?$/, message: SHIPPING_MESSAGES.zipUS },
  CA: { pattern: /^[A-Z]\d[A-Z][ -]?\d[A-Z]\d$/i, message: SHIPPING_MESSAGES.zipCA },
};

/** What a carrier would refuse in the address, before any rate is asked for. */
export function addressProblems(a: RateAddress): FieldError[] {
  const errors: FieldError[] = [];
  if (!a.line1) errors.push({ field: "line1", message: SHIPPING_MESSAGES.line1 });
  if (!a.city) errors.push({ field: "city", message: SHIPPING_MESSAGES.city });
  if (!/^[A-Z]{2}$/.test(a.countryCode))
    errors.push({ field: "country", message: SHIPPING_MESSAGES.country });
  const rule = POSTAL[a.countryCode];
  if (!a.zip) errors.push({ field: "zip", message: rule?.message ?? SHIPPING_MESSAGES.zip });
  else if (rule && !rule.pattern.test(a.zip)) errors.push({ field: "zip", message: rule.message });
  return errors;
}

/** International services ('-INTL' codes) ship outside the US; the others within it. */
const servesCountry = (row: RateRow, countryCode: string) =>
  row.serviceCode.endsWith("-INTL") ? countryCode !== "US" : countryCode === "US";

/**
 * The built-in rate table: every service is listed, priced at its base price plus its
 * per-item price for each item after the first; a service the table disables, or one that
 * does not serve the destination, is listed disabled. Cheapest first.
 */
export function createTableRates(read: () => Promise<RateRow[]>): ShippingRates {
  return {
    async rates(address, itemCount) {
      const errors = addressProblems(address);
      if (errors.length) return { ok: false, errors };
      const rows = await read();
      const options = rows.map((row) => ({
        serviceCode: row.serviceCode,
        name: row.name,
        carrierName: row.carrierName,
        serviceName: row.serviceName,
        price: cents(row.basePrice + row.perItemPrice * Math.max(0, itemCount - 1)),
        isDisabled: row.isDisabled || !servesCountry(row, address.countryCode),
      }));
      options.sort((a, b) => a.price - b.price || a.serviceCode.localeCompare(b.serviceCode));
      return { ok: true, options };
    },
  };
}
