import { and, eq, isNull, sql } from "drizzle-orm";
import { randomToken } from "../core/crypto.ts";
import { rows, type Db } from "../db/client.ts";
import {
  addresses,
  orderLineItems,
  orders,
  payments,
  quoteLineItems,
  quotes,
  sandboxCharges,
} from "../db/schema/index.ts";
import type { Cents } from "../../src/domain/brand.ts";
import { needsPayment } from "../../src/domain/order.ts";
import { CLOSED } from "../../src/domain/quote.ts";
import { orderRecord } from "./orders.ts";

/** A charge the gateway made, as the portal keeps it: brand and last four, never the number. */
export interface KeptCharge {
  reference: string;
  amount: Cents;
  currency: number;
  brand: string;
  last4: string;
}

/** The sandbox gateway's ledger (services/payments.ts ChargeStore): one charge per key. */
export function sandboxChargeStore(db: Db) {
  const find = async (key: string): Promise<KeptCharge | null> => {
    const [row] = await db
      .select({
        reference: sandboxCharges.reference,
        amount: sandboxCharges.amount,
        currency: sandboxCharges.currency,
        brand: sandboxCharges.brand,
        last4: sandboxCharges.last4,
      })
      .from(sandboxCharges)
      .where(eq(sandboxCharges.idempotencyKey, key));
    return row ?? null;
  };
  return {
    find,
    async save(key: string, charge: KeptCharge, at: Date): Promise<KeptCharge> {
      await db
        .insert(sandboxCharges)
        .values({ idempotencyKey: key, ...charge, createdAt: at })
        .onConflictDoNothing({ target: sandboxCharges.idempotencyKey });
      return (await find(key))!;
    },
  };
}

/** The payment row of a card charge. */
const paymentRow = (orderId: number, key: string, charge: KeptCharge, poNumber: string | null, at: Date) => ({
  orderId,
  amount: charge.amount,
  currency: charge.currency,
  method: "Online - CC",
  cardBrand: charge.brand,
  cardLast4: charge.last4,
  poNumber,
  idempotencyKey: key,
  gatewayReference: charge.reference,
  createdAt: at,
});

/**
 * Records a charge against an order (inside the attempt's transaction, the order row locked);
 * an order paid in full becomes Paid.
 */
export async function recordOrderPayment(
  tx: Db,
  p: { orderId: number; key: string; charge: KeptCharge; poNumber: string | null },
  at: Date,
) {
  await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, p.orderId)).for("update");
  const [payment] = await tx
    .insert(payments)
    .values(paymentRow(p.orderId, p.key, p.charge, p.poNumber, at))
    .returning({ id: payments.id });
  const { record, paymentStatus } = await settleOrderPayment(tx, p.orderId);
  return {
    paymentId: payment!.id,
    paymentStatus,
    balanceDue: record.balanceDue,
    validationId: record.row.validationId,
  };
}

/**
 * After a payment row is written (the order row locked): the order's new totals, and an
 * order that owed money and is now paid in full becomes Paid. Card and offline payments alike.
 */
export async function settleOrderPayment(tx: Db, orderId: number) {
  const record = (await orderRecord(tx, orderId, tx))!;
  let paymentStatus = record.row.paymentStatus;
  if (record.balanceDue === 0 && needsPayment(paymentStatus)) {
    paymentStatus = "Paid";
    await tx.update(orders).set({ paymentStatus }).where(eq(orders.id, orderId));
  }
  return { record, paymentStatus };
}

/** Copies an address row (the order keeps the address it was placed with, whatever the quote's becomes). */
async function copyAddress(tx: Db, id: number | null): Promise<number | null> {
  if (id === null) return null;
  const [row] = await tx.select().from(addresses).where(eq(addresses.id, id));
  if (!row) return null;
  const { id: _old, ...fields } = row;
  const [copy] = await tx.insert(addresses).values(fields).returning({ id: addresses.id });
  return copy!.id;
}

/**
 * Locks a quote that is not ordered yet and writes its order (a new id, an unguessable
 * validation id, copies of the quote's addresses, its tax, shipping and line items) and marks
 * the quote Closed with the order's id, in the caller's transaction. Null when the quote was
 * ordered or closed meanwhile (its row is locked, so two submits never both pass).
 */
export async function writeQuoteOrder(
  tx: Db,
  p: { quoteId: number; email: string; poNumber: string | null; paymentStatus: string; paymentType: string },
  at: Date,
) {
  const [quote] = await tx
    .select()
    .from(quotes)
    .where(and(eq(quotes.id, p.quoteId), isNull(quotes.orderId)))
    .for("update");
  if (!quote || quote.status === CLOSED) return null;
  const [next] = await rows<{ id: number }>(tx, sql`select nextval('orders_id_seq')::int as id`);
  const orderId = next!.id;
  const validationId = randomToken(18);
  const shippingAddressId = await copyAddress(tx, quote.shippingAddressId);
  const billingAddressId =
    quote.billingAddressId === quote.shippingAddressId
      ? shippingAddressId
      : await copyAddress(tx, quote.billingAddressId);
  await tx.insert(orders).values({
    id: orderId,
    subscriptionId: quote.subscriptionId,
    quoteId: quote.id,
    validationId,
    productFamily: quote.productFamily,
    contactName: quote.contactName,
    // The typed address is where receipts go, never the contact: it grants nothing (decisions.md).
    contactEmail: quote.contactEmail,
    receiptEmail: p.email,
    createdAt: at,
    shippingStatus: "Received",
    poNumber: p.poNumber,
    paymentStatus: p.paymentStatus,
    paymentType: p.paymentType,
    currency: quote.currency,
    crmOrgId: quote.crmOrgId,
    shippingAddressId,
    billingAddressId,
    tax: quote.tax,
    shippingAmount: quote.shippingCost,
    shipMethod: quote.shippingMethod,
    shipCarrier: quote.shippingCarrier,
  });
  const items = await tx.select().from(quoteLineItems).where(eq(quoteLineItems.quoteId, quote.id));
  if (items.length)
    await tx
      .insert(orderLineItems)
      .values(items.map(({ id: _id, quoteId: _q, ...item }) => ({ ...item, orderId })));
  await tx.update(quotes).set({ status: CLOSED, orderId }).where(eq(quotes.id, quote.id));
  return { orderId, validationId };
}

/**
 * Turns a paid quote into its order, in the attempt's transaction: a new order id from
 * orders_id_seq, an unguessable validation id (144 bits), the quote's addresses, tax,
 * shipping and line items, the payment row, and the quote Closed with its order id. Null
 * when the quote was ordered or closed meanwhile (its row is locked while this runs).
 */
export async function orderFromQuote(
  tx: Db,
  p: { quoteId: number; key: string; charge: KeptCharge; email: string; poNumber: string | null },
  at: Date,
) {
  const placed = await writeQuoteOrder(tx, { ...p, paymentStatus: "Paid", paymentType: "Online - CC" }, at);
  if (!placed) return null;
  const [payment] = await tx
    .insert(payments)
    .values(paymentRow(placed.orderId, p.key, p.charge, p.poNumber, at))
    .returning({ id: payments.id });
  return { ...placed, paymentId: payment!.id };
}
