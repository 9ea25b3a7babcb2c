import { cents, type Cents } from "../../src/domain/brand.ts";

/** Where the goods are delivered, for the tax rate: ISO country code and region (state, province). */
export interface TaxPlace {
  countryCode: string;
  region: string;
}

/** Sales tax: the built-in rate table today, a tax service later. */
export interface TaxService {
  /** The tax on `taxable` cents (the goods after discounts, plus shipping) delivered to `place`. */
  taxFor(place: TaxPlace, taxable: Cents): Promise<Cents>;
}

/** The table's rate in basis points for a country and region ('*' for any region), or null. */
export type TaxRateReader = (countryCode: string, region: string) => Promise<number | null>;

/** The rate in basis points: the region's own, else the country's '*', else none (0). */
export async function rateOf(read: TaxRateReader, place: TaxPlace): Promise<number> {
  const country = place.countryCode.toUpperCase();
  const region = place.region.trim().toUpperCase();
  if (region) {
    const own = await read(country, region);
    if (own !== null) return own;
  }
  return (await read(country, "*")) ?? 0;
}

/**
 * The built-in tax table (tax_rates): tax = taxable × rate / 10,000, rounded to the nearest
 * cent (half up). Shipping is part of the taxable amount.
 */
export function createTableTax(read: TaxRateReader): TaxService {
  return {
    async taxFor(place, taxable) {
      const bp = await rateOf(read, place);
      return cents(Math.round((Math.max(0, taxable) * bp) / 10_000));
    },
  };
}
