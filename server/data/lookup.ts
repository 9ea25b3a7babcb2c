import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { orders, quotes } from "../db/schema/index.ts";
import { publicOrderRef } from "../../src/domain/order.ts";

/** What the lookup compares and answers: the record's contact and the link identifier it opens. */
export interface LookupRecord {
  contactName: string;
  /** ORD-{id}-{validationId} for an order, the quote's hex token for a quote. */
  resourceUri: string;
}

/**
 * The order or quote a lookup names, or null. One query by primary key either way, so a
 * number that names nothing costs what a number with the wrong name does.
 */
export async function lookupRecord(
  db: Db,
  wanted: { kind: "order" | "quote"; id: number },
): Promise<LookupRecord | null> {
  if (wanted.kind === "order") {
    const [row] = await db
      .select({ id: orders.id, contactName: orders.contactName, validationId: orders.validationId })
      .from(orders)
      .where(eq(orders.id, wanted.id));
    return row
      ? { contactName: row.contactName, resourceUri: publicOrderRef(row.id, row.validationId) }
      : null;
  }
  const [row] = await db
    .select({ contactName: quotes.contactName, token: quotes.publicToken })
    .from(quotes)
    .where(eq(quotes.id, wanted.id));
  return row ? { contactName: row.contactName, resourceUri: row.token } : null;
}
