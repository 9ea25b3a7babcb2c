import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { inTransaction, openDatabase, rows, type Database, type Db } from "../../server/db/client.ts";
import { appendAudit } from "../../server/data/audit.ts";
import { sealAll } from "../../server/data/auditSeal.ts";
import { ensureSamplePartitionsBetween, samplePartitions } from "../../server/data/partitions.ts";
import { rollUpRange } from "../../server/data/rollups.ts";
import { trimAuditTrail } from "../../server/flows/auditRetention.ts";
import { dropAgedMonths } from "../../server/flows/dataRetention.ts";
import { emptyDatabase } from "../../server/seed/index.ts";
import { openTestDatabase } from "./helpers.ts";

/*
 * The daily retention job: whole months of readings and rollups go once every plan has aged
 * them out, never the current or a future month, never the default partition, and the audit
 * trail keeps its own retention. Its clock is 2026-11-29; the plans are set per test.
 */

const NOW = new Date("2026-11-29T05:30:00Z");
const plan = (unit: string, value: number) => ({ dataAgeLimitUnit: unit, dataAgeLimitValue: value });

describe("data retention by plan", () => {
  let database: Database & { drop(): Promise<void> };
  const db = () => database.db;
  let channel = 0;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });
  beforeEach(async () => {
    await emptyDatabase(db());
    await dropTestMonths(db());
    channel = await oneChannel(db());
    // Months from January 2023 to three months ahead, each holding a reading and its rollups.
    await ensureSamplePartitionsBetween(db(), new Date("2023-01-01Z"), new Date("2027-02-01Z"));
    const times: number[] = [];
    for (let m = 0; m < 50; m++) times.push(Date.UTC(2023, m, 15, 12) / 1000);
    await db().execute(
      sql`insert into samples (channel_id, time, value)
          select ${channel}, to_timestamp(t), 1 from unnest(${`{${times.join(",")}}`}::float8[]) as t`,
    );
    await inTransaction(db(), (tx) => rollUpRange(tx, [channel], times[0]!, times.at(-1)! + 1));
  });

  /** The months (YYYY_MM) a table holds rows of, and its partitions' months. */
  const monthsOf = async (table: "samples" | "sample_rollups") => {
    const column = table === "samples" ? "time" : "bucket";
    const found = await rows<{ m: string }>(
      db(),
      sql`select distinct to_char(${sql.identifier(column)} at time zone 'UTC', 'YYYY_MM') as m
          from ${sql.identifier(table)} order by 1`,
    );
    return found.map((r) => r.m);
  };
  const partitionMonths = async (table: "samples" | "sample_rollups") =>
    (await samplePartitions(db(), table)).map((n) => n.slice(table.length + 1));

  it("drops only the months older than every plan shows, of readings and rollups alike", async () => {
    await subscriptionsWith(db(), [plan("YEAR", 1), plan("YEAR", 2), plan("MONTH", 3)]);
    const run = await dropAgedMonths(db(), NOW);
    // Two years back is 2024-11-29: November 2024 holds visible days, so it stays whole.
    expect(run.cutoff).toEqual(new Date("2024-11-29T05:30:00Z"));
    expect(run.keptFrom).toEqual(new Date("2024-11-01T00:00:00Z"));
    const gone = [];
    for (let m = 0; m < 22; m++)
      gone.push(new Date(Date.UTC(2023, m, 1)).toISOString().slice(0, 7).replace("-", "_"));
    expect(run.dropped.sort()).toEqual(
      [...gone.map((m) => `sample_rollups_${m}`), ...gone.map((m) => `samples_${m}`)].sort(),
    );
    for (const table of ["samples", "sample_rollups"] as const) {
      expect((await monthsOf(table))[0]).toBe("2024_11");
      expect(await partitionMonths(table)).toContain("2024_11");
      expect(await partitionMonths(table)).toContain("default");
      expect(await partitionMonths(table)).toContain("2027_02");
      expect((await partitionMonths(table)).filter((m) => m < "2024_11")).toEqual([]);
    }
    // A second run finds nothing more to drop.
    expect((await dropAgedMonths(db(), NOW)).dropped).toEqual([]);
  });

  it("drops nothing while one plan keeps data without a limit", async () => {
    expect(await dropAgedMonths(db(), NOW)).toEqual({ cutoff: null, keptFrom: null, dropped: [] });
    await subscriptionsWith(db(), [plan("DAY", 1), {}]);
    expect((await dropAgedMonths(db(), NOW)).dropped).toEqual([]);
    expect((await monthsOf("samples"))[0]).toBe("2023_01");
  });

  it("never drops the current month, nor the one a push may still write to, on the shortest plan", async () => {
    await subscriptionsWith(db(), [plan("DAY", 1)]);
    // On 3 December a push may still carry readings of late November.
    const early = new Date("2026-12-03T10:00:00Z");
    const run = await dropAgedMonths(db(), early);
    expect(run.keptFrom).toEqual(new Date("2026-11-01T00:00:00Z"));
    expect(await partitionMonths("samples")).toEqual(["2026_11", "2026_12", "2027_01", "2027_02", "default"]);
    expect(await monthsOf("samples")).toEqual(["2026_11", "2026_12", "2027_01", "2027_02"]);
  });

  it("leaves readings in the default partition alone (reads hold them back)", async () => {
    await db().execute(
      sql`insert into samples (channel_id, time, value) values (${channel}, '1999-03-05T06:07:08Z', 2)`,
    );
    await subscriptionsWith(db(), [plan("YEAR", 1)]);
    await dropAgedMonths(db(), NOW);
    const [left] = await rows<{ part: string }>(
      db(),
      sql`select tableoid::regclass::text as part from samples where time < '2000-01-01Z'`,
    );
    expect(left).toEqual({ part: "samples_default" });
  });

  it("leaves the audit trail to its own retention (seven years at least)", async () => {
    await subscriptionsWith(db(), [plan("MONTH", 1)]);
    const [sub] = await rows<{ id: number }>(db(), sql`select id from subscriptions where name = 'Owner'`);
    const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);
    for (const d of [3000, 400, 40, 1])
      await inTransaction(db(), (tx) =>
        appendAudit(
          tx,
          {
            subscriptionId: sub!.id,
            actor: { kind: "system", label: "system" },
            action: "device.rename",
            entityType: 3,
            entityId: 5,
            deviceId: 5,
            before: { name: `Freezer ${d}` },
            after: { name: `Freezer ${d + 1}` },
          },
          daysAgo(d),
        ),
      );
    await sealAll(db(), undefined);
    const trail = () => rows<{ seq: string }>(db(), sql`select seq from audit_log order by seq`);
    const before = await trail();
    expect((await dropAgedMonths(db(), NOW)).dropped.length).toBeGreaterThan(0);
    expect(await trail()).toEqual(before);
    // The trail's own job still keeps everything younger than seven years, a month's plan or not.
    await trimAuditTrail(db(), NOW);
    expect((await trail()).map((r) => Number(r.seq))).toEqual([2, 3, 4]);
  });

  it.runIf(process.env["TEST_DATABASE_URL"])(
    "drops each month once when two instances run the job at the same moment",
    async () => {
      await subscriptionsWith(db(), [plan("YEAR", 1)]);
      const url = await urlOf(db());
      const instances = await Promise.all([openDatabase({ url }), openDatabase({ url })]);
      try {
        const runs = await Promise.all(instances.map((i) => dropAgedMonths(i.db, NOW)));
        const all = runs.flatMap((r) => r.dropped);
        expect(new Set(all).size).toBe(all.length);
        // A year back is 2025-11-29: every month before November 2025, of both tables.
        expect(all.length).toBe(2 * 34);
        expect((await monthsOf("samples"))[0]).toBe("2025_11");
      } finally {
        await Promise.all(instances.map((i) => i.close()));
      }
    },
  );
});

/** A subscription (no data-age limit yet) with a device of one channel; returns the channel's id. */
async function oneChannel(db: Db): Promise<number> {
  const one = async (query: ReturnType<typeof sql>) => (await rows<{ id: number }>(db, query))[0]!.id;
  const owner = await one(
    sql`insert into subscriptions (name, tier_name, limits, features) values ('Owner', 'Tier', '{}'::jsonb, '{}'::jsonb)
        returning id`,
  );
  const device = await one(
    sql`insert into devices (subscription_id, name, type, device_type, mac_address, serialnumber, ingest_key_hash)
        values (${owner}, 'Retention', 'RA', 'RA', '00:00:00:00:00:0A', 'S1', 'x') returning id`,
  );
  const sensor = await one(
    sql`insert into sensors (device_id, mac_address, kind) values (${device}, '00:00:00:00:00:0A', 'wireless') returning id`,
  );
  const group = await one(
    sql`insert into channel_groups (sensor_id, channel_key, group_type, group_index) values (${sensor}, 'k', 1200, 0)
        returning id`,
  );
  return one(
    sql`insert into channels (channel_group_id, channel_key, channel_type, kind, name)
        values (${group}, 'k_1', 1, 'temperature', 'T') returning id`,
  );
}

/** The owner's plan has the first limits, and one more subscription each of the others. */
async function subscriptionsWith(db: Db, limits: Record<string, unknown>[]) {
  const [first, ...others] = limits;
  await db.execute(
    sql`update subscriptions set limits = ${JSON.stringify(first)}::jsonb where name = 'Owner'`,
  );
  for (const [i, l] of others.entries())
    await db.execute(
      sql`insert into subscriptions (name, tier_name, limits, features)
          values (${`Plan ${i}`}, 'Tier', ${JSON.stringify(l)}::jsonb, '{}'::jsonb)`,
    );
}

/** Drops the monthly partitions a test made, so the next starts from the migration's months. */
async function dropTestMonths(db: Db) {
  for (const table of ["samples", "sample_rollups"] as const)
    for (const name of await samplePartitions(db, table))
      if (!name.endsWith("_default")) await db.execute(sql`drop table ${sql.identifier(name)}`);
}

/** The address of the test's PostgreSQL database (a second instance opens its own pool on it). */
async function urlOf(db: Db): Promise<string> {
  const [row] = await rows<{ name: string }>(db, sql`select current_database() as name`);
  const url = new URL(process.env["TEST_DATABASE_URL"]!);
  url.pathname = `/${row!.name}`;
  return url.toString();
}
