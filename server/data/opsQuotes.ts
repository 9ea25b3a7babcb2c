import { eq, inArray } from "drizzle-orm";
import { hexToken } from "../core/crypto.ts";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import type { Db } from "../db/client.ts";
import { addresses, countries, quoteLineItems, quotes, subscriptions } from "../db/schema/index.ts";
import { cents } from "../../src/domain/brand.ts";
import { CLOSED, isQuoteOpen, quoteNumber } from "../../src/domain/quote.ts";
import type { OpsAddress, OpsQuoteInput, OpsQuoteUpdate } from "../../src/api/ops.ts";
import { MAX_PAYMENT_CENTS, TOTAL_TOO_LARGE } from "../../src/api/payments.ts";
import { quoteRecord } from "./quotes.ts";

export const QUOTE_EXISTS = "A quote with this id exists already; change it with PATCH.";
export const QUOTE_CLOSED = "The quote is closed; it cannot change.";
export const NO_SUBSCRIPTION = "No subscription has this id.";
export const UNKNOWN_COUNTRY = "Unknown country id.";
export { TOTAL_TOO_LARGE };

/**
 * Refuses (400, the write rolls back) a quote whose grand total a payment form cannot carry:
 * each line is bounded, their sum is not, and a total past 2^53 cents would lose precision.
 */
async function requirePayableTotal(tx: Db, id: number) {
  const record = (await quoteRecord(tx, id))!;
  if (!(record.grandTotal <= MAX_PAYMENT_CENTS))
    throw new ApiError(400, [{ field: null, message: TOTAL_TOO_LARGE }]);
}

/** The answer of every quote write: what the back office needs to send the quote's link. */
export async function opsQuoteAnswer(tx: Db, id: number) {
  const record = (await quoteRecord(tx, id))!;
  return {
    id,
    quoteNumber: quoteNumber(id),
    status: record.row.status,
    publicToken: record.row.publicToken,
    subtotal: record.subtotal,
    grandTotal: record.grandTotal,
    lineItemCount: record.lineItems.length,
  };
}

/** Refuses country ids the country list does not have (a 400 on the field, not a foreign-key 500). */
async function checkCountries(tx: Db, input: Pick<OpsQuoteUpdate, "shippingAddress" | "billingAddress">) {
  const named = (["shippingAddress", "billingAddress"] as const).flatMap((field) => {
    const id = input[field]?.countryId;
    return typeof id === "number" ? [{ field, id }] : [];
  });
  if (!named.length) return;
  const known = await tx
    .select({ id: countries.id })
    .from(countries)
    .where(
      inArray(
        countries.id,
        named.map((n) => n.id),
      ),
    );
  const missing = named.filter((n) => !known.some((k) => k.id === n.id));
  if (missing.length)
    throw new ApiError(
      400,
      missing.map((m) => ({ field: `${m.field}.countryId`, message: UNKNOWN_COUNTRY })),
    );
}

/** A new address row for the quote (a quote's address is never shared with another record). */
async function addressId(tx: Db, subscriptionId: number | null, a: OpsAddress | null | undefined) {
  if (!a) return null;
  const [row] = await tx
    .insert(addresses)
    .values({ subscriptionId, ...a })
    .returning({ id: addresses.id });
  return row!.id;
}

/** The quote columns an input sets (only those it names). */
async function quoteColumns(tx: Db, subscriptionId: number | null, q: OpsQuoteUpdate) {
  const specialist = q.productSpecialist;
  return {
    ...(q.status !== undefined && { status: q.status }),
    ...(q.productFamily !== undefined && { productFamily: q.productFamily }),
    ...(q.contactName !== undefined && { contactName: q.contactName }),
    ...(q.contactEmail !== undefined && { contactEmail: q.contactEmail }),
    ...(q.expiresAt !== undefined && {
      expiresAt: q.expiresAt === null ? null : new Date(q.expiresAt * 1000),
    }),
    ...(q.currency !== undefined && { currency: q.currency }),
    ...(q.needsShipping !== undefined && { needsShipping: q.needsShipping }),
    ...(q.shippingAddress !== undefined && {
      shippingAddressId: await addressId(tx, subscriptionId, q.shippingAddress),
    }),
    ...(q.billingAddress !== undefined && {
      billingAddressId: await addressId(tx, subscriptionId, q.billingAddress),
    }),
    ...(specialist !== undefined && {
      specialistName: specialist?.name ?? null,
      specialistPhone: specialist?.phone ?? null,
      specialistPhoneExtension: specialist?.phoneExtension ?? null,
    }),
    ...(q.shippingCost !== undefined && { shippingCost: cents(q.shippingCost) }),
    ...(q.shippingCarrier !== undefined && { shippingCarrier: q.shippingCarrier }),
    ...(q.shippingMethod !== undefined && { shippingMethod: q.shippingMethod }),
    ...(q.tax !== undefined && { tax: cents(q.tax) }),
  };
}

/** Replaces a quote's line items, in the quote's currency. */
async function replaceLineItems(
  tx: Db,
  quoteId: number,
  currency: number,
  items: OpsQuoteInput["lineItems"],
) {
  await tx.delete(quoteLineItems).where(eq(quoteLineItems.quoteId, quoteId));
  await tx.insert(quoteLineItems).values(
    items.map((item) => ({
      quoteId,
      productNumber: item.productNumber,
      description: item.description,
      quantity: item.quantity,
      discount: item.discount ?? null,
      listPrice: cents(item.listPrice),
      currency,
    })),
  );
}

/** Creates a quote under the back office's own id, with an unguessable link token (128 bits). */
export async function createOpsQuote(tx: Db, q: OpsQuoteInput, now: Date) {
  const [taken] = await tx.select({ id: quotes.id }).from(quotes).where(eq(quotes.id, q.id));
  if (taken) throw new ApiError(409, [{ field: "id", message: QUOTE_EXISTS }]);
  const [sub] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.id, q.subscriptionId));
  if (!sub) throw new ApiError(400, [{ field: "subscriptionId", message: NO_SUBSCRIPTION }]);
  await checkCountries(tx, q);
  const columns = await quoteColumns(tx, q.subscriptionId, q);
  await tx.insert(quotes).values({
    ...columns,
    id: q.id,
    subscriptionId: q.subscriptionId,
    status: q.status ?? "Open",
    productFamily: q.productFamily,
    contactName: q.contactName,
    createdAt: now,
    publicToken: hexToken(),
  });
  await replaceLineItems(tx, q.id, q.currency ?? 1, q.lineItems);
  await requirePayableTotal(tx, q.id);
  return opsQuoteAnswer(tx, q.id);
}

/** The quote row, locked for the write; 404 when there is none, 409 when it is closed. */
async function openQuoteForUpdate(tx: Db, id: number) {
  const [row] = await tx.select().from(quotes).where(eq(quotes.id, id)).for("update");
  if (!row) throw new ApiError(404, NOT_FOUND);
  if (!isQuoteOpen(row.status) || row.orderId !== null) throw new ApiError(409, QUOTE_CLOSED);
  return row;
}

/** Changes an open quote: the fields given, and all line items when `lineItems` is given. */
export async function updateOpsQuote(tx: Db, id: number, q: OpsQuoteUpdate) {
  const row = await openQuoteForUpdate(tx, id);
  await checkCountries(tx, q);
  const columns = await quoteColumns(tx, row.subscriptionId, q);
  if (Object.keys(columns).length) await tx.update(quotes).set(columns).where(eq(quotes.id, id));
  const currency = q.currency ?? row.currency;
  if (q.lineItems) await replaceLineItems(tx, id, currency, q.lineItems);
  else if (q.currency !== undefined)
    await tx.update(quoteLineItems).set({ currency }).where(eq(quoteLineItems.quoteId, id));
  await requirePayableTotal(tx, id);
  return opsQuoteAnswer(tx, id);
}

/** Closes a quote (closing a closed one changes nothing); its pages then take no payment. */
export async function closeOpsQuote(tx: Db, id: number) {
  const [row] = await tx.select().from(quotes).where(eq(quotes.id, id)).for("update");
  if (!row) throw new ApiError(404, NOT_FOUND);
  if (row.status !== CLOSED) await tx.update(quotes).set({ status: CLOSED }).where(eq(quotes.id, id));
  return opsQuoteAnswer(tx, id);
}
