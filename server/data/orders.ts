import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { orderLineItems, orders, payments, quotes } from "../db/schema/index.ts";
import { cents, type Cents } from "../../src/domain/brand.ts";
import { subtotal } from "../../src/domain/lineItem.ts";
import { balanceDue } from "../../src/domain/order.ts";
import { safeEqual } from "../core/crypto.ts";
import { lineItemOf } from "./records.ts";

export type OrderRow = typeof orders.$inferSelect;

/**
 * An order with everything its pages and its payments need, amounts computed once here
 * (line totals by the domain rule): what the server charges is what the page shows.
 */
export interface OrderRecord {
  row: OrderRow;
  lineItems: ReturnType<typeof lineItemOf>[];
  payments: (typeof payments.$inferSelect)[];
  quote: { id: number; createdAt: Date } | null;
  subtotal: Cents;
  grandTotal: Cents;
  paid: Cents;
  balanceDue: Cents;
}

/** Loads an order by id (no access check: callers check the token or the session first). */
export async function orderRecord(db: Db, id: number, tx: Db = db): Promise<OrderRecord | null> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, id));
  if (!row) return null;
  const items = await tx
    .select()
    .from(orderLineItems)
    .where(eq(orderLineItems.orderId, id))
    .orderBy(asc(orderLineItems.id));
  const paymentRows = await tx.select().from(payments).where(eq(payments.orderId, id)).orderBy(asc(payments.id));
  const [quote] = row.quoteId
    ? await tx.select({ id: quotes.id, createdAt: quotes.createdAt }).from(quotes).where(eq(quotes.id, row.quoteId))
    : [];
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
  const [row] = await db
    .select({ validationId: orders.validationId })
    .from(orders)
    .where(eq(orders.id, id));
  if (!row || !safeEqual(row.validationId, validationId)) return null;
  return orderRecord(db, id);
}
