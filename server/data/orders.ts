import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { orderLineItems, orders, payments, quotes, shipmentItems, shipments } from "../db/schema/index.ts";
import { cents, epochSeconds, type Cents } from "../../src/domain/brand.ts";
import { subtotal } from "../../src/domain/lineItem.ts";
import { amountsOf } from "../../src/domain/money.ts";
import { MAX_ID } from "../../src/api/fields.ts";
import type { OrderSummary } from "../../src/api/accountOrders.ts";
import { shippingProgress } from "../../src/domain/order.ts";
import type { OrderDetails } from "../../src/api/orders.ts";
import type { Shipment } from "../../src/api/shipments.ts";
import {
  balanceDue,
  billingStatus,
  dueDate,
  needsPayment,
  ORDER_PREFIX,
  orderPayable,
  parsePublicOrderRef,
  publicShippingStatus,
} from "../../src/domain/order.ts";
import { quoteNumber } from "../../src/domain/quote.ts";
import { orderTimeline } from "../../src/domain/timeline.ts";
import { safeEqual } from "../core/crypto.ts";
import { lineItemOf, recordAddresses, seconds, secondsOrNull } from "./records.ts";

export type OrderRow = typeof orders.$inferSelect;

/**
 * An order with everything its pages and its payments need, amounts computed once here
 * (line totals by the domain rule): what the server charges is what the page shows.
 */
export interface OrderRecord {
  row: OrderRow;
  lineItems: ReturnType<typeof lineItemOf>[];
  payments: (typeof payments.$inferSelect)[];
  quote: { id: number; createdAt: Date; needsShipping: boolean } | null;
  subtotal: Cents;
  grandTotal: Cents;
  paid: Cents;
  balanceDue: Cents;
}

/** Loads an order by id (no access check: callers check the token or the session first). */
export async function orderRecord(db: Db, id: number, tx?: Db): Promise<OrderRecord | null> {
  const [row] = await (tx ?? db).select().from(orders).where(eq(orders.id, id));
  // Inside a transaction its reads stay one after another, on its one connection.
  return row ? recordOfRow(row, tx ?? db, tx === undefined) : null;
}

/**
 * An order row's record: its line items, payments and quote. Outside a transaction the three
 * reads go out together (each pooled query costs a round trip; the public order page is hot).
 */
async function recordOfRow(row: typeof orders.$inferSelect, tx: Db, together: boolean): Promise<OrderRecord> {
  const readItems = () =>
    tx
      .select()
      .from(orderLineItems)
      .where(eq(orderLineItems.orderId, row.id))
      .orderBy(asc(orderLineItems.id));
  const readPayments = () =>
    tx.select().from(payments).where(eq(payments.orderId, row.id)).orderBy(asc(payments.id));
  const readQuote = async () =>
    row.quoteId
      ? (
          await tx
            .select({ id: quotes.id, createdAt: quotes.createdAt, needsShipping: quotes.needsShipping })
            .from(quotes)
            .where(eq(quotes.id, row.quoteId))
        )[0]
      : undefined;
  const [items, paymentRows, quote] = together
    ? await Promise.all([readItems(), readPayments(), readQuote()])
    : [await readItems(), await readPayments(), await readQuote()];
  const sub = subtotal(items);
  const grandTotal = cents(sub + row.tax + row.shippingAmount);
  const paid = cents(paymentRows.reduce((sum, p) => sum + p.amount, 0));
  return {
    row,
    lineItems: items.map(lineItemOf),
    payments: paymentRows,
    quote: quote ?? null,
    subtotal: sub,
    grandTotal,
    paid,
    balanceDue: cents(balanceDue(grandTotal, paid)),
  };
}

/**
 * The order a shared link names: its id and its validation id (compared in constant time),
 * or null for a wrong or unknown one alike.
 */
export async function orderByRef(db: Db, id: number, validationId: string): Promise<OrderRecord | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  // An unknown id still pays for the comparison: a wrong id and a wrong token take alike.
  const matches = safeEqual(row?.validationId ?? NO_ORDER, validationId);
  if (!row || !matches) return null;
  return recordOfRow(row, db, true);
}

/** Compared with when no order has the id; no validation id can equal it (it has a space). */
const NO_ORDER = "no such order";

/**
 * The order a public reference names ("ORD-{id}-{validationId}" or "{id}-{validationId}"),
 * or null for a malformed, unknown or wrong one alike; ids beyond int4 name nothing.
 */
export async function orderByPublicRef(db: Db, text: string): Promise<OrderRecord | null> {
  const ref = parsePublicOrderRef(text);
  if (!ref || ref.id < 1 || ref.id > MAX_ID) return null;
  return orderByRef(db, ref.id, ref.validationId);
}

/** A shipment's carrier scans, as the Carriers service gives them (route → data, no service import). */
export type ScansByTrackingNumber = ReadonlyMap<
  string,
  readonly { at: Date; location: string; description: string }[]
>;

/**
 * The public order page's answer: the record, its shipments and their carrier scans, with
 * every derived value (statuses, payable, due date, timeline) from src/domain.
 */
export async function orderDetails(
  db: Db,
  record: OrderRecord,
  shipmentList: readonly Shipment[],
  scans: ScansByTrackingNumber,
  memberPath: string | null,
): Promise<OrderDetails> {
  const { row } = record;
  const shippingTimestamp = secondsOrNull(row.shippingTimestamp);
  return {
    id: row.id,
    orderNumber: `${ORDER_PREFIX}${row.id}`,
    productFamily: row.productFamily,
    createdAt: seconds(row.createdAt),
    shippingTimestamp,
    shippingStatus: row.shippingStatus,
    statusType: publicShippingStatus({
      shippingStatus: row.shippingStatus,
      shippingTimestamp,
      shipments: shipmentList,
    }),
    poNumber: row.poNumber,
    paymentStatus: row.paymentStatus,
    billingStatus: billingStatus(row.paymentStatus),
    needsPayment: needsPayment(row.paymentStatus),
    payable: orderPayable({ paymentStatus: row.paymentStatus, balanceDue: record.balanceDue }),
    paymentType: row.paymentType,
    currency: row.currency,
    crmOrgId: row.crmOrgId,
    ...(await recordAddresses(db, row)),
    orderLineItemList: record.lineItems,
    numItems: record.lineItems.reduce((sum, item) => sum + item.quantity, 0),
    ...amountsOf(row.currency, {
      subtotal: record.subtotal,
      tax: row.tax,
      shippingAmount: row.shippingAmount,
      grandTotal: record.grandTotal,
      paid: record.paid,
      paymentBalanceDue: record.balanceDue,
    }),
    dueDate: dueDate(shippingTimestamp),
    shipMethod: row.shipMethod,
    shipCarrier: row.shipCarrier,
    referrerCode: row.referrerCode,
    payments: record.payments.map((p) => ({
      id: p.id,
      createdAt: seconds(p.createdAt),
      ...amountsOf(row.currency, { amount: p.amount }),
      method: p.method,
      cardBrand: p.cardBrand,
      cardLast4: p.cardLast4,
    })),
    shipmentList: [...shipmentList],
    trackingNumbers: shipmentList.map((s) => s.trackingNumber),
    timeline: timelineOf(record, shipmentList, scans),
    memberPath,
    // An order made without a quote (by hand) is taken to ship, as most do.
    needsShipping: record.quote?.needsShipping ?? true,
  };
}

/** The order's life for the timeline: its quote, itself, payments, shipments and their scans. */
function timelineOf(record: OrderRecord, shipmentList: readonly Shipment[], scans: ScansByTrackingNumber) {
  const { row } = record;
  return orderTimeline({
    quote: record.quote
      ? { number: quoteNumber(record.quote.id), createdAt: seconds(record.quote.createdAt) }
      : null,
    order: { number: `${ORDER_PREFIX}${row.id}`, createdAt: seconds(row.createdAt) },
    currency: row.currency,
    payments: record.payments.map((p) => ({
      at: seconds(p.createdAt),
      amount: p.amount,
      method: p.method,
      cardLast4: p.cardLast4,
    })),
    shipments: shipmentList.map((s) => ({
      trackingNumber: s.trackingNumber,
      carrier: s.carrier,
      shippedAt: s.shippedAt === null ? null : epochSeconds(s.shippedAt),
      isDelivered: s.isDelivered,
      activity: (scans.get(s.trackingNumber) ?? []).map((a) => ({
        at: seconds(a.at),
        description: a.description,
        location: a.location,
      })),
    })),
  });
}

/** Ordered and shipped item quantities of an order. */
export function itemCounts(record: OrderRecord, shipmentList: readonly Shipment[]) {
  const ordered = record.lineItems.reduce((sum, item) => sum + item.quantity, 0);
  const shipped = shipmentList.reduce(
    (sum, s) => sum + s.shipmentItems.reduce((n, item) => n + item.quantity, 0),
    0,
  );
  return { ordered, shipped };
}

/**
 * The active subscription's newest orders (at most `limit`), each with its totals and
 * shipping progress; three queries whatever the count (orders, their items, their shipments'
 * items and payments summed in SQL).
 */
export async function subscriptionOrders(db: Db, subscriptionId: number, limit: number) {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.subscriptionId, subscriptionId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit + 1);
  const shown = rows.slice(0, limit);
  const ids = shown.map((o) => o.id);
  if (!ids.length) return { list: [], truncated: false };
  const items = await db.select().from(orderLineItems).where(inArray(orderLineItems.orderId, ids));
  const paid = await db
    .select({ orderId: payments.orderId, amount: sql<string>`sum(${payments.amount})` })
    .from(payments)
    .where(inArray(payments.orderId, ids))
    .groupBy(payments.orderId);
  const sent = await db
    .select({
      orderId: shipments.orderId,
      shipped: sql<string>`coalesce(sum(${shipmentItems.quantity}), 0)`,
      count: sql<string>`count(distinct ${shipments.id})`,
      delivered: sql<string>`count(distinct ${shipments.id}) filter (where ${shipments.isDelivered})`,
    })
    .from(shipments)
    .leftJoin(shipmentItems, eq(shipmentItems.shipmentId, shipments.id))
    .where(inArray(shipments.orderId, ids))
    .groupBy(shipments.orderId);
  const list: OrderSummary[] = shown.map((row) => {
    const own = items.filter((i) => i.orderId === row.id);
    const grandTotal = cents(subtotal(own) + row.tax + row.shippingAmount);
    const paidSum = Number(paid.find((p) => p.orderId === row.id)?.amount ?? 0);
    const s = sent.find((x) => x.orderId === row.id);
    const count = Number(s?.count ?? 0);
    const delivered = Number(s?.delivered ?? 0);
    return {
      id: row.id,
      orderNumber: `${ORDER_PREFIX}${row.id}`,
      createdAt: seconds(row.createdAt),
      shippingProgress: shippingProgress({
        shippingStatus: row.shippingStatus,
        ordered: own.reduce((sum, i) => sum + i.quantity, 0),
        shipped: Number(s?.shipped ?? 0),
        shipments: Array.from({ length: count }, (_, i) => ({ isDelivered: i < delivered })),
      }),
      billingStatus: billingStatus(row.paymentStatus),
      poNumber: row.poNumber,
      currency: row.currency,
      ...amountsOf(row.currency, { grandTotal, paymentBalanceDue: balanceDue(grandTotal, paidSum) }),
    };
  });
  return { list, truncated: rows.length > limit };
}
