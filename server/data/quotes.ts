import { asc, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { quoteLineItems, quotes } from "../db/schema/index.ts";
import { cents, type Cents } from "../../src/domain/brand.ts";
import { subtotal } from "../../src/domain/lineItem.ts";
import { amountsOf } from "../../src/domain/money.ts";
import {
  isQuoteOpen,
  parseQuoteNumber,
  quoteNumber,
  quotePayable,
  shippingDetailsString,
} from "../../src/domain/quote.ts";
import { MAX_ID } from "../../src/api/fields.ts";
import type { QuoteSummary } from "../../src/api/accountOrders.ts";
import { QuoteDetailSchema, type QuoteDetail, type QuoteDetails } from "../../src/api/quotes.ts";
import { lineItemOf, recordAddresses, seconds, secondsOrNull } from "./records.ts";

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
  return {
    row,
    lineItems: items.map(lineItemOf),
    subtotal: sub,
    grandTotal: cents(sub + row.tax + row.shippingCost),
  };
}

/** A quote by its sequential id (the summary's source; no access check). */
export async function quoteRecord(db: Db, id: number): Promise<QuoteRecord | null> {
  const [row] = await db.select().from(quotes).where(eq(quotes.id, id));
  return recordOf(db, row);
}

/** A quote token: 128 random bits as lower-case hex (core/crypto.ts hexToken). */
const TOKEN = /^[0-9a-f]{32}$/;
/** Whether a public quote id has the shape of a quote's link token (else it is a number, or nothing). */
export const isQuoteToken = (text: string) => TOKEN.test(text);

/** A quote by its token link (the token is unique and indexed; 128 random bits). */
export async function quoteByToken(db: Db, token: string): Promise<QuoteRecord | null> {
  if (!TOKEN.test(token)) return null;
  const [row] = await db.select().from(quotes).where(eq(quotes.publicToken, token));
  return recordOf(db, row);
}

/**
 * A quote as its public page shows it. `full` (opened with the token link) adds the detail
 * (addresses, prices, specialist), the guest token and whether it can be paid; a sequential
 * QUO-{n} gets the summary card alone.
 */
export async function quoteDetails(
  db: Db,
  record: QuoteRecord,
  opts: { full: boolean; now: Date; memberPath: string | null },
): Promise<QuoteDetails> {
  const { row } = record;
  const expiresAt = secondsOrNull(row.expiresAt);
  return {
    id: row.id,
    quoteNumber: quoteNumber(row.id),
    productFamily: row.productFamily,
    status: row.status,
    statusType: row.status,
    isOpen: isQuoteOpen(row.status),
    createdAt: seconds(row.createdAt),
    expiresAt,
    payable:
      opts.full &&
      quotePayable(
        { status: row.status, expiresAt, orderId: row.orderId, grandTotal: record.grandTotal },
        seconds(opts.now),
      ),
    guestToken: opts.full ? row.publicToken : null,
    memberPath: opts.memberPath,
    ...(opts.full ? await quoteDetail(db, record) : WITHHELD),
  };
}

/** A summary's token-only fields: all null (QUO-{n} is a sequential number). */
const WITHHELD = Object.fromEntries(Object.keys(QuoteDetailSchema.shape).map((k) => [k, null])) as {
  [K in keyof QuoteDetail]: null;
};

/** What only the token link shows. */
async function quoteDetail(db: Db, record: QuoteRecord): Promise<QuoteDetail> {
  const { row } = record;
  return {
    currency: row.currency,
    crmOrgId: row.crmOrgId,
    needsShipping: row.needsShipping,
    contactName: row.contactName,
    ...(await recordAddresses(db, row)),
    productSpecialist: {
      name: row.specialistName,
      phone: row.specialistPhone,
      phoneExtension: row.specialistPhoneExtension,
    },
    shippingCarrier: row.shippingCarrier,
    shippingMethod: row.shippingMethod,
    shippingDetailsString: shippingDetailsString(row.shippingCarrier, row.shippingMethod),
    quoteLineItemList: record.lineItems,
    numItems: record.lineItems.reduce((sum, item) => sum + item.quantity, 0),
    ...amountsOf(row.currency, {
      subtotal: record.subtotal,
      tax: row.tax,
      shippingCost: row.shippingCost,
      grandTotal: record.grandTotal,
    }),
  };
}

/**
 * The quote a public address names: its 32-hex token (the full quote) or QUO-{n} / {n} (the
 * summary only); null for anything else, ids beyond int4 included.
 */
export async function quoteByPublicId(
  db: Db,
  text: string,
): Promise<{ record: QuoteRecord; full: boolean } | null> {
  if (TOKEN.test(text)) {
    const record = await quoteByToken(db, text);
    return record ? { record, full: true } : null;
  }
  const id = parseQuoteNumber(text);
  if (id === null || id < 1 || id > MAX_ID) return null;
  const record = await quoteRecord(db, id);
  return record ? { record, full: false } : null;
}

/** The active subscription's newest quotes (at most `limit`) with their grand totals; two queries. */
export async function subscriptionQuotes(db: Db, subscriptionId: number, limit: number) {
  const rows = await db
    .select()
    .from(quotes)
    .where(eq(quotes.subscriptionId, subscriptionId))
    .orderBy(desc(quotes.createdAt), desc(quotes.id))
    .limit(limit + 1);
  const shown = rows.slice(0, limit);
  if (!shown.length) return { list: [], truncated: false };
  const items = await db
    .select()
    .from(quoteLineItems)
    .where(
      inArray(
        quoteLineItems.quoteId,
        shown.map((q) => q.id),
      ),
    );
  const list: QuoteSummary[] = shown.map((row) => ({
    id: row.id,
    quoteNumber: quoteNumber(row.id),
    status: row.status,
    isOpen: isQuoteOpen(row.status),
    createdAt: seconds(row.createdAt),
    expiresAt: secondsOrNull(row.expiresAt),
    currency: row.currency,
    ...amountsOf(row.currency, {
      grandTotal: subtotal(items.filter((i) => i.quoteId === row.id)) + row.tax + row.shippingCost,
    }),
  }));
  return { list, truncated: rows.length > limit };
}
