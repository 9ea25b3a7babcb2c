import { sql } from "drizzle-orm";
import type { useTestApp } from "./helpers.ts";

/*
 * Which rows belong to which subscription, read from the database itself (every table with a
 * subscription_id column), so the tests that look for one subscription's data in another's
 * answers cover the tables later issues add.
 */

export type Db = ReturnType<typeof useTestApp>["database"]["db"];

/** The rows of a raw query (PGlite and node-postgres both answer `{rows}`). */
export const rowsOf = async <T>(db: Db, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** The id of the seeded subscription whose name starts so ("Acme", "Northwind"). */
export async function subscriptionId(db: Db, namePrefix: string) {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`select id from subscriptions where name like ${`${namePrefix}%`}`,
  );
  return row!.id;
}

/** Tables whose rows belong to one subscription. */
export const ownedTables = (db: Db) =>
  rowsOf<{ name: string }>(
    db,
    sql`select c.table_name as name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = 'public' and c.column_name = 'subscription_id' and t.table_type = 'BASE TABLE'
        order by 1`,
  );

/** A few ids of every table of the subscription, and its own id. */
export async function rowIdsOf(db: Db, subscription: number, perTable = 3): Promise<number[]> {
  const ids = new Set([subscription]);
  for (const { name } of await ownedTables(db)) {
    const rows = await rowsOf<{ id: unknown }>(
      db,
      sql`select * from ${sql.identifier(name)} where subscription_id = ${subscription} limit ${perTable}`,
    );
    for (const row of rows) if (typeof row.id === "number") ids.add(row.id);
  }
  return [...ids];
}

/** The table a field or parameter names: `messageId` → account_messages, `orders` → orders. */
async function tableFor(db: Db, name: string): Promise<string | undefined> {
  const stem = name.replace(/Id$/, "").replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const plural = stem.endsWith("s") ? stem : `${stem}s`;
  const tables = (await ownedTables(db)).map((t) => t.name).concat("subscriptions");
  return tables.find((t) => t === plural) ?? tables.find((t) => t.endsWith(`_${plural}`));
}

/** The first id of the subscription's rows in the table a name points at, if there is one. */
export async function rowIdFor(db: Db, name: string, subscription: number): Promise<number | undefined> {
  const table = await tableFor(db, name);
  if (!table) return undefined;
  const column = table === "subscriptions" ? sql`id` : sql`subscription_id`;
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`select id from ${sql.identifier(table)} where ${column} = ${subscription} order by id limit 1`,
  );
  return row?.id;
}

/**
 * Columns whose values are a shared vocabulary (statuses, kinds, carriers, catalogue models)
 * rather than a subscription's own words: another subscription may see the same ones.
 */
const SHARED_VOCABULARY =
  /(status|state|type|kind|method|carrier|carrier_name|service_name|service_code|units|color|firmware|url|code|family|model|product_number)$/;
const DATE_TIME = /^\d{4}-\d\d-\d\d/;

/** Text values of the subscription's rows, its own row, and the people only it has. */
async function textsOf(db: Db, subscription: number, exceptIn: number | null) {
  const texts = new Set<string>();
  const add = (rows: Record<string, unknown>[]) => {
    for (const row of rows)
      for (const [column, v] of Object.entries(row))
        if (typeof v === "string" && !SHARED_VOCABULARY.test(column) && !DATE_TIME.test(v)) texts.add(v);
  };
  for (const { name } of await ownedTables(db))
    add(await rowsOf(db, sql`select * from ${sql.identifier(name)} where subscription_id = ${subscription}`));
  add(await rowsOf(db, sql`select name, tier_name from subscriptions where id = ${subscription}`));
  add(
    await rowsOf(
      db,
      sql`select email, first_name, last_name from users u
          where exists (select 1 from user_assignments a where a.user_id = u.id and a.subscription_id = ${subscription})
          and not exists (select 1 from user_assignments a where a.user_id = u.id and a.subscription_id = ${exceptIn ?? -1})`,
    ),
  );
  return texts;
}

/**
 * Strings only one subscription's rows hold (names, titles, addresses, people only in it),
 * long enough not to be a common word and not a random token: seeing one in an answer to a
 * person of `other` is a leak.
 */
export async function onlyStrings(db: Db, subscription: number, other: number): Promise<string[]> {
  const theirs = await textsOf(db, other, null);
  const ours = await textsOf(db, subscription, other);
  return [...ours].filter((s) => s.length >= 6 && !theirs.has(s) && !/^[0-9a-f]{20,}$/i.test(s));
}
