import { and, eq } from "drizzle-orm";
import { type Db, inTransaction } from "../db/client.ts";
import { addresses, orders, shippingOptions, taxRates, uploadedFiles } from "../db/schema/index.ts";
import type { Cents } from "../../src/domain/brand.ts";
import { writeQuoteOrder } from "./payments.ts";
import { completeAttempt, startAttempt, type AttemptDetails, type StoredAnswer } from "./paymentAttempts.ts";

/*
 * The signed-in order of a quote (routes/quoteOrder.ts): the rate and tax tables it is priced
 * with, the addresses and shipping it is placed with, and the order on terms (purchase order).
 */

/** The built-in rate table (services/shippingRates.ts reads it through deps). */
export function rateTable(db: Db) {
  return () => db.select().from(shippingOptions);
}

/** The built-in tax table's rate for a country and region, or null (services/tax.ts). */
export function taxRateReader(db: Db) {
  return async (countryCode: string, region: string): Promise<number | null> => {
    const [row] = await db
      .select({ bp: taxRates.rateBasisPoints })
      .from(taxRates)
      .where(and(eq(taxRates.countryCode, countryCode), eq(taxRates.region, region)));
    return row?.bp ?? null;
  };
}

/** An address the person typed into the order form, as stored. */
export interface AddressFields {
  companyName: string | null;
  contactName: string | null;
  attention: string | null;
  line1: string | null;
  line2: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  countryId: number | null;
  phoneNumber: string | null;
}

/** What the order is placed with instead of the quote's stored values (recomputed by the server). */
export interface OrderTerms {
  subscriptionId: number;
  shipping: AddressFields | null;
  billing: AddressFields | null;
  tax: Cents;
  shippingAmount: Cents;
  shipCarrier: string | null;
  shipMethod: string | null;
}

async function addressRow(tx: Db, subscriptionId: number, a: AddressFields | null): Promise<number | null> {
  if (!a) return null;
  const [row] = await tx
    .insert(addresses)
    .values({ ...a, subscriptionId })
    .returning({ id: addresses.id });
  return row!.id;
}

/** Writes the terms onto an order just made from its quote (same transaction): addresses, tax, shipping. */
export async function applyOrderTerms(tx: Db, orderId: number, terms: OrderTerms) {
  const shippingAddressId = await addressRow(tx, terms.subscriptionId, terms.shipping);
  const billingAddressId = await addressRow(tx, terms.subscriptionId, terms.billing);
  await tx
    .update(orders)
    .set({
      ...(shippingAddressId !== null ? { shippingAddressId } : {}),
      ...(billingAddressId !== null ? { billingAddressId } : {}),
      tax: terms.tax,
      shippingAmount: terms.shippingAmount,
      shipCarrier: terms.shipCarrier,
      shipMethod: terms.shipMethod,
    })
    .where(eq(orders.id, orderId));
}

/** A purchase-order file kept under DATA_DIR/uploads (the stored path never holds the client's name). */
export interface UploadRow {
  subscriptionId: number;
  userId: number;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  storedPath: string;
}

/**
 * Places a quote's order on terms (Purchase Order), in the caller's transaction: a new order
 * id, an unguessable validation id, the quote's line items, the terms' addresses, tax and
 * shipping, payment status Open (invoiced later), the PO file's row, and the quote Closed
 * with its order id. Null when the quote was ordered or closed meanwhile (its row is locked).
 */
export async function orderOnTerms(
  tx: Db,
  p: { quoteId: number; email: string; poNumber: string; terms: OrderTerms; upload: UploadRow },
  at: Date,
) {
  const placed = await writeQuoteOrder(
    tx,
    { ...p, paymentStatus: "Open", paymentType: "Purchase Order" },
    at,
  );
  if (!placed) return null;
  await applyOrderTerms(tx, placed.orderId, p.terms);
  const [file] = await tx
    .insert(uploadedFiles)
    .values({ ...p.upload, orderId: placed.orderId, createdAt: at })
    .returning({ id: uploadedFiles.id });
  return { orderId: placed.orderId, fileId: file!.id };
}

/**
 * An attempt without a gateway (an order on terms): the attempt row is opened and finished in
 * the same transaction as the rows `work` writes, so a crash leaves nothing pending and a
 * parallel submit with the same key waits on the row, then finds it finished. Null when the
 * key exists already or another attempt is pending on the same record (the caller looks which).
 */
export async function attemptInOneTransaction(
  db: Db,
  a: { key: string; subject: string; fingerprint: string; details: AttemptDetails },
  at: Date,
  work: (tx: Db) => Promise<StoredAnswer>,
): Promise<StoredAnswer | null> {
  return inTransaction(db, async (tx) => {
    if (!(await startAttempt(tx, a, at))) return null;
    const done = await completeAttempt(tx, a.key, at, async (t) => ({ answer: await work(t), value: null }));
    return done.answer;
  });
}
