import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { quoteLineItems, quotes } from "../db/schema/index.ts";
import { cents, type Cents } from "../../src/domain/brand.ts";
import { subtotal } from "../../src/domain/lineItem.ts";
import { lineItemOf } from "./records.ts";

export type QuoteRow = typeof quotes.$inferSelect;

/** A quote with its line items and totals, computed once here for page and payment alike. */
export interface QuoteRecord {
  row: QuoteRow;
  lineItems: ReturnType<typeof lineItemOf>[];
  subtotal: Cents;
  grandTotal: Cents;
}

async function recordOf(db: Db, row: QuoteRow | undefined): Promise<QuoteRecord | null> {
  if (!row) return null;
  const items = await db
    .select()
    .from(quoteLineItems)
    .where(eq(quoteLineItems.quoteId, row.id))
    .orderBy(asc(quoteLineItems.id));
  const sub = subtotal(items);
  return { row, lineItems: items.map(lineItemOf), subtotal: sub, grandTotal: cents(sub + row.tax + row.shippingCost) };
}

/** A quote by its sequential id (the summary's source; no access check). */
export async function quoteRecord(db: Db, id: number): Promise<QuoteRecord | null> {
  const [row] = await db.select().from(quotes).where(eq(quotes.id, id));
  return recordOf(db, row);
}

/** A quote by its token link (the token is unique and indexed; 128 random bits). */
export async function quoteByToken(db: Db, token: string): Promise<QuoteRecord | null> {
  if (!/^[0-9a-f]{32}$/.test(token)) return null;
  const [row] = await db.select().from(quotes).where(eq(quotes.publicToken, token));
  return recordOf(db, row);
}
