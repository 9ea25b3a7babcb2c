import { sql } from "drizzle-orm";
import { type Db, inTransaction, rows } from "../db/client.ts";
import { ensureSamplePartitions } from "../data/partitions.ts";
import { seedAccounts } from "./accounts.ts";
import { seedDevices } from "./devices.ts";
import { seedOrders } from "./orders.ts";
import { seedQuotes } from "./quotes.ts";
import { seedReference } from "./reference.ts";
import { seedReports } from "./reports.ts";
import { forgetPushDevices } from "../data/ingestLookup.ts";

/** True when the database holds no subscriptions yet. */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await rows<{ n: number }>(db, sql`select count(*)::int as n from subscriptions`);
  return (row?.n ?? 0) === 0;
}

/** Seeds the deterministic demo data set into an empty database, in one transaction. */
export async function seedDemo(db: Db, opts: { now: Date; sampleDays: number }) {
  await inTransaction(db, async (tx) => {
    // The recent samples go into their months' partitions, not the default one.
    await ensureSamplePartitions(tx, opts.now);
    await seedReference(tx);
    const acct = await seedAccounts(tx, opts.now);
    const dev = await seedDevices(tx, opts.now, acct);
    await seedReports(tx, opts.now, acct.acmeId, dev.channelIds, opts.sampleDays);
    // Each value is as of its channel's newest seeded sample: older pushes leave it alone.
    await tx.execute(
      sql`update channels c set value_at = (select max(s.time) from samples s where s.channel_id = c.id)`,
    );
    const addr = await seedQuotes(tx, opts.now, acct.acmeId, acct.northwindId);
    await seedOrders(tx, opts.now, { ...acct, ...addr });
  });
}

/** Empties every table and restarts ids, for `npm run seed` and between tests. */
export async function emptyDatabase(db: Db) {
  const tables = await rows<{ tablename: string }>(
    db,
    sql`select tablename from pg_tables where schemaname = 'public'`,
  );
  if (!tables.length) return;
  const list = tables.map((t) => `"${t.tablename}"`).join(", ");
  await db.execute(sql.raw(`truncate ${list} restart identity cascade`));
  // Ids begin again: this process's remembered push devices would match the next ones.
  forgetPushDevices(db);
}
