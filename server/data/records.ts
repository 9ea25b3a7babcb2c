import { eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { addresses, countries } from "../db/schema/index.ts";
import type { Address } from "../../src/api/records.ts";
import { epochSeconds, type EpochSeconds } from "../../src/domain/brand.ts";
import { lineTotal, type LineItemAmounts } from "../../src/domain/lineItem.ts";
import { amountsOf } from "../../src/domain/money.ts";

/** A database time as epoch seconds. */
export const seconds = (d: Date): EpochSeconds => epochSeconds(d.getTime() / 1000);
export const secondsOrNull = (d: Date | null): EpochSeconds | null => (d ? seconds(d) : null);

/** Addresses by id, with their country, for the records that name them. */
export async function addressesById(db: Db, ids: readonly (number | null)[]): Promise<Map<number, Address>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (!wanted.length) return new Map();
  const found = await db
    .select({ a: addresses, c: { id: countries.id, name: countries.name, code: countries.code } })
    .from(addresses)
    .leftJoin(countries, eq(countries.id, addresses.countryId))
    .where(inArray(addresses.id, wanted));
  return new Map(
    found.map(({ a, c }) => [
      a.id,
      {
        id: a.id,
        companyName: a.companyName,
        contactName: a.contactName,
        attention: a.attention,
        line1: a.line1,
        line2: a.line2,
        city: a.city,
        state: a.state,
        zipCode: a.zipCode,
        country: c && c.id !== null ? { id: c.id, name: c.name, code: c.code } : null,
        phoneNumber: a.phoneNumber,
      },
    ]),
  );
}

/** A line item as the contracts show it, its total computed by the domain rule. */
export function lineItemOf<
  T extends LineItemAmounts & { productNumber: string; description: string; currency: number },
>(item: T) {
  return {
    productNumber: item.productNumber,
    description: item.description,
    quantity: item.quantity,
    discount: item.discount,
    currency: item.currency,
    ...amountsOf(item.currency, { listPrice: item.listPrice, lineTotal: lineTotal(item) }),
  };
}

/** A quote's or an order's shipping and billing addresses, null where it names none. */
export async function recordAddresses(
  db: Db,
  row: { shippingAddressId: number | null; billingAddressId: number | null },
) {
  const map = await addressesById(db, [row.shippingAddressId, row.billingAddressId]);
  return {
    shippingAddress: row.shippingAddressId ? (map.get(row.shippingAddressId) ?? null) : null,
    billingAddress: row.billingAddressId ? (map.get(row.billingAddressId) ?? null) : null,
  };
}
