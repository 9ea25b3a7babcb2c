import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, vi } from "vitest";
import { rows, type Db } from "../../server/db/client.ts";
import { demoToken } from "../../server/seed/demo.ts";
import { publicOrderRef } from "../../src/domain/order.ts";

/* What the guest payment tests share: the seeded records' paths, the card form, and the
 * places card data must never reach (the console and every table). */

export const orderRef = (id: number) => publicOrderRef(id, demoToken(`order-${id}`));
export const payPath = (id: number) => `/order/public/${orderRef(id)}/pay-amount-due`;
export const quotePath = (token: string) => `/quote/public/${token}/order`;
/** One idempotency key per attempt, as the page makes them. */
export const newKey = () => randomBytes(16).toString("base64url");

/** The card form as the page sends it (expiry in 2028, after TEST_NOW), with this file's code and email. */
export const cardFormFor =
  (cvv: string, email: string) =>
  (over: Record<string, string> = {}) => ({
    cardNumber: "4242 4242 4242 4242",
    cardExpirationMonth: "12",
    cardExpirationYear: "28",
    cardCvv: cvv,
    email,
    idempotencyKey: newKey(),
    ...over,
  });

/** Everything the console prints during the file (and nothing reaches the terminal); the file checks it in its own afterAll. */
export function captureConsole(): string[] {
  const printed: string[] = [];
  beforeAll(() => {
    for (const level of ["log", "info", "warn", "error"] as const)
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        printed.push(args.map(String).join(" "));
      });
  });
  afterAll(() => vi.restoreAllMocks());
  return printed;
}

/** Rows (as JSON text, "table: row") of every table for which `leaks` says yes. */
export async function rowsWhere(db: Db, leaks: (row: string) => boolean): Promise<string[]> {
  const tables = await rows<{ tablename: string }>(
    db,
    sql`select tablename from pg_tables where schemaname = 'public'`,
  );
  const found: string[] = [];
  for (const { tablename } of tables)
    for (const { row } of await rows<{ row: string }>(
      db,
      sql.raw(`select row_to_json(t)::text as row from "${tablename}" t`),
    ))
      if (leaks(row)) found.push(`${tablename}: ${row.slice(0, 300)}`);
  return found;
}

/**
 * A card code as it would sit in stored or logged text: a token of its own (a JSON number
 * after `:` or `,`, a quoted string). Not the same digits inside a time's milliseconds
 * (".739+00:00"), an id or a random token (letters, `-`, `_` around them), which a 3-digit
 * code matches by chance in a few runs out of a hundred.
 */
export const cardCodeIn = (cvv: string) => new RegExp(`(?<![0-9A-Za-z_.\\-])${cvv}(?![0-9A-Za-z_])`);
