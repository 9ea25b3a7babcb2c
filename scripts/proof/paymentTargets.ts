import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import { inTransaction, rows, type Db } from "../../server/db/client.ts";
import { createOpsQuote } from "../../server/data/opsQuotes.ts";
import { orderRecord } from "../../server/data/orders.ts";
import { OpsQuoteRequest } from "../../src/api/ops.ts";
import { orderPayable, publicOrderRef } from "../../src/domain/order.ts";

/** One payable record and the form fields that name its amount. */
export interface PayTarget {
  /** 'order:5003' or 'quote:700001', as the server's payment attempts name it. */
  subject: string;
  path: string;
  amountFields: Record<string, string>;
}

/** Where the proof's quotes start by default: far above the demo's ids. */
const FIRST_QUOTE_ID = 700_001;

/**
 * Creates `count` open quotes through the ops API's own write (the back office's way of making
 * them), each with one line item of a random price, and lists them with the demo orders
 * that have a balance to pay. Quotes without expiry and without shipping stay payable.
 */
export async function preparePayTargets(
  db: Db,
  count: number,
  firstId = FIRST_QUOTE_ID,
): Promise<PayTarget[]> {
  const [sub] = await rows<{ id: number }>(db, sql`select id from subscriptions order by id limit 1`);
  if (!sub) throw new Error("The demo seed made no subscription.");
  const targets: PayTarget[] = [];
  for (let i = 0; i < count; i++) {
    const input = z.parse(OpsQuoteRequest, {
      id: firstId + i,
      subscriptionId: sub.id,
      productFamily: "Proof",
      contactName: "Kill Proof",
      needsShipping: false,
      lineItems: [
        { productNumber: "PRF-1", description: "Proof item", quantity: 1, listPrice: 1000 + i * 7 },
      ],
    });
    const quote = await inTransaction(db, (tx) => createOpsQuote(tx, input, new Date()));
    targets.push({
      subject: `quote:${quote.id}`,
      path: `/quote/public/${quote.publicToken}/order`,
      amountFields: { grandTotal: String(quote.grandTotal) },
    });
  }
  for (const { id } of await rows<{ id: number }>(db, sql`select id from orders order by id`)) {
    const order = await orderRecord(db, id);
    if (!order || !orderPayable({ paymentStatus: order.row.paymentStatus, balanceDue: order.balanceDue }))
      continue;
    const balance = String(order.balanceDue);
    targets.push({
      subject: `order:${id}`,
      path: `/order/public/${publicOrderRef(id, order.row.validationId)}/pay-amount-due`,
      amountFields: { balanceDue: balance, paymentAmount: balance },
    });
  }
  return targets;
}
