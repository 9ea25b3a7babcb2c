import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { channels, devices, samples } from "../../server/db/schema/index.ts";
import { randomToken, sha256 } from "../../server/core/crypto.ts";
import { startPartitionJob } from "../../server/core/repeatingJob.ts";
import {
  ensureSamplePartitions,
  ensureSamplePartitionsBetween,
  samplePartitions,
} from "../../server/data/partitions.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

const MAC = "00:1A:2B:3C:4D:01";
const COLD_TEMP = `${MAC}_W1A001_1200_0_1`;
const KEY = randomToken();
const MIGRATIONS = fileURLToPath(new URL("../../server/db/migrations", import.meta.url));

describe("samples partitioned by month", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const channelId = async () =>
    (await db().select().from(channels).where(eq(channels.channelKey, COLD_TEMP)))[0]!.id;
  const store = (channel: number, iso: string, value: number) =>
    db()
      .insert(samples)
      .values({ channelId: channel, time: new Date(iso), value })
      .onConflictDoUpdate({ target: [samples.channelId, samples.time], set: { value: sql`excluded.value` } });
  /** The partition each stored reading of the channel lies in, oldest first. */
  const placed = (channel: number) =>
    rows<{ part: string; time: string; value: number }>(
      db(),
      sql`select tableoid::regclass::text as part, to_char("time" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as time, value
          from samples where channel_id = ${channel} order by "time"`,
    );

  it("stores a push in its month's partition and readings of other months in theirs", async () => {
    await ensureSamplePartitions(db(), TEST_NOW);
    await db()
      .update(devices)
      .set({ ingestKeyHash: sha256(KEY) })
      .where(eq(devices.macAddress, MAC));
    const channel = await channelId();
    await db().delete(samples).where(eq(samples.channelId, channel));
    const res = await ctx.app.request("/api/v1/device-data/push", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Device ${KEY}` },
      body: JSON.stringify({
        macAddress: MAC,
        readings: [{ channelKey: COLD_TEMP, value: 5.5, time: TEST_NOW.getTime() / 1000 - 60 }],
      }),
    });
    expect(res.status).toBe(200);
    await ensureSamplePartitionsBetween(db(), new Date("2030-01-01Z"), new Date("2030-03-01Z"));
    for (const [iso, value] of [
      ["2030-01-15T10:00:00Z", 1],
      ["2030-02-01T00:00:00Z", 2],
      ["2030-03-31T23:59:59Z", 3],
      ["2030-04-01T00:00:00Z", 4],
    ] as const)
      await store(channel, iso, value);
    expect(await placed(channel)).toEqual([
      { part: "samples_2026_11", time: "2026-11-22T11:59:00Z", value: 5.5 },
      { part: "samples_2030_01", time: "2030-01-15T10:00:00Z", value: 1 },
      { part: "samples_2030_02", time: "2030-02-01T00:00:00Z", value: 2 },
      { part: "samples_2030_03", time: "2030-03-31T23:59:59Z", value: 3 },
      { part: "samples_default", time: "2030-04-01T00:00:00Z", value: 4 },
    ]);
  });

  it("creates the months a push may write to and three ahead, of readings and rollups, once, when instances run it together", async () => {
    const now = new Date("2031-06-03T08:00:00Z");
    const runs = await Promise.all([1, 2, 3].map(() => ensureSamplePartitions(db(), now)));
    const months = ["2031_05", "2031_06", "2031_07", "2031_08", "2031_09"];
    const rollupMonths = months.map((m) => `sample_rollups_${m}`);
    const sampleMonths = months.map((m) => `samples_${m}`);
    expect(runs.flat().sort()).toEqual([...rollupMonths, ...sampleMonths]);
    expect(await ensureSamplePartitions(db(), now)).toEqual([]);
    const all = await samplePartitions(db());
    expect(all.filter((p) => p.startsWith("samples_2031"))).toEqual(sampleMonths);
    const rollups = await samplePartitions(db(), "sample_rollups");
    expect(rollups.filter((p) => p.startsWith("sample_rollups_2031"))).toEqual(rollupMonths);
  });

  it("keeps a reading far in the past in the default partition and reads it back", async () => {
    const channel = await channelId();
    await store(channel, "1999-03-05T06:07:08Z", 12.5);
    const [row] = (await placed(channel)).filter((r) => r.time.startsWith("1999"));
    expect(row).toEqual({ part: "samples_default", time: "1999-03-05T06:07:08Z", value: 12.5 });
  });

  it("moves the default partition's readings of a month into it when the month is created", async () => {
    const channel = await channelId();
    await store(channel, "2035-02-10T00:00:00Z", 1);
    await store(channel, "2035-02-28T23:59:59Z", 2);
    await store(channel, "2035-03-01T00:00:00Z", 3);
    const created = await ensureSamplePartitionsBetween(
      db(),
      new Date("2035-02-01Z"),
      new Date("2035-02-01Z"),
    );
    expect(created).toEqual(["samples_2035_02", "sample_rollups_2035_02"]);
    // The moved-into partition has the primary key (an upsert updates) and the foreign key.
    await store(channel, "2035-02-10T00:00:00Z", 9);
    expect((await placed(channel)).filter((r) => r.time.startsWith("2035"))).toEqual([
      { part: "samples_2035_02", time: "2035-02-10T00:00:00Z", value: 9 },
      { part: "samples_2035_02", time: "2035-02-28T23:59:59Z", value: 2 },
      { part: "samples_default", time: "2035-03-01T00:00:00Z", value: 3 },
    ]);
    await db().delete(channels).where(eq(channels.id, channel));
    expect(await placed(channel)).toEqual([]);
  });

  it("runs the partition job at once and then on its interval until stopped", async () => {
    const calls: Date[] = [];
    const now = new Date("2032-01-15T00:00:00Z");
    const stop = startPartitionJob(async (at) => void calls.push(at), { intervalMs: 20, now: () => now });
    await new Promise((resolve) => setTimeout(resolve, 70));
    stop();
    const seen = calls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toBeGreaterThanOrEqual(2);
    expect(calls.length).toBe(seen);
    expect(calls[0]).toBe(now);
  });
});

describe("migrations 0009 and 0020 (samples and rollups by month)", () => {
  it("moves populated samples and rollups tables into monthly partitions with their keys", async () => {
    const dir = await migrationsUpTo(8);
    const target = await rawDatabase();
    try {
      await target.migrate(dir);
      // Two channels without their device: foreign keys are off for this insert only.
      await target.exec(`set session_replication_role = replica`);
      await target.exec(`insert into channels (id, channel_group_id, channel_key, channel_type, kind, name)
        values (7, 1, 'k7', 1, 'temperature', 'T'), (8, 1, 'k8', 1, 'temperature', 'T')`);
      await target.exec(`set session_replication_role = origin`);
      await target.exec(`insert into samples values (7, '2024-02-10T00:00:00Z', 1), (7, '2024-02-29T23:59:59Z', 2),
        (8, '2024-05-01T00:00:00Z', 3)`);
      const rollup = (channel: number, level: number, bucket: string) =>
        `(${channel}, ${level}, '${bucket}', 1, 2, 3, 2, '${bucket}', '${bucket}', '${bucket}', '${bucket}')`;
      await target.exec(`insert into sample_rollups values ${rollup(7, 300, "2024-02-29T23:55:00Z")},
        ${rollup(7, 10800, "2024-02-29T21:00:00Z")}, ${rollup(8, 300, "2024-05-01T00:00:00Z")}`);
      await target.migrate(MIGRATIONS);
      const placedRows = await target.query<{ part: string; n: number }>(
        `select tableoid::regclass::text as part, count(*)::int as n from samples group by 1 order by 1`,
      );
      expect(placedRows).toEqual([
        { part: "samples_2024_02", n: 2 },
        { part: "samples_2024_05", n: 1 },
      ]);
      const parts = await target.query<{ name: string }>(
        `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent = 'samples'::regclass`,
      );
      const names = parts.map((p) => p.name);
      expect(names).toContain("samples_default");
      expect(names).not.toContain("samples_2024_03");
      const keys = await target.query<{ name: string }>(
        `select conname as name from pg_constraint where conrelid = 'samples'::regclass and contype in ('p', 'f') order by 1`,
      );
      expect(keys.map((k) => k.name)).toEqual([
        "samples_channel_id_channels_id_fk",
        "samples_channel_id_time_pk",
      ]);
      expect(await target.query(`select to_regclass('samples_unpartitioned') as t`)).toEqual([{ t: null }]);
      // The rollups too, by their bucket's month, with their own keys and a default partition.
      expect(
        await target.query(
          `select tableoid::regclass::text as part, count(*)::int as n from sample_rollups group by 1 order by 1`,
        ),
      ).toEqual([
        { part: "sample_rollups_2024_02", n: 2 },
        { part: "sample_rollups_2024_05", n: 1 },
      ]);
      const rollupKeys = await target.query<{ name: string }>(
        `select conname as name from pg_constraint where conrelid = 'sample_rollups'::regclass and contype in ('p', 'f') order by 1`,
      );
      expect(rollupKeys.map((k) => k.name)).toEqual([
        "sample_rollups_channel_id_channels_id_fk",
        "sample_rollups_channel_id_level_bucket_pk",
      ]);
      expect(await target.query(`select to_regclass('sample_rollups_default') is not null as t`)).toEqual([
        { t: true },
      ]);
      expect(await target.query(`select to_regclass('sample_rollups_unpartitioned') as t`)).toEqual([
        { t: null },
      ]);
    } finally {
      await target.close();
      await rm(dir, { recursive: true, force: true });
    }
    // Every migration on a new database: about 25 s of PGlite on a busy machine.
  }, 90_000);
});

/** A copy of the migrations folder whose journal ends at entry `last`. */
async function migrationsUpTo(last: number) {
  const dir = await mkdtemp(join(tmpdir(), "migrations-"));
  await cp(MIGRATIONS, dir, { recursive: true });
  const journalPath = join(dir, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  await writeFile(journalPath, JSON.stringify(journal));
  return dir;
}

/** An empty database on the test engine (PGlite, or PostgreSQL with TEST_DATABASE_URL) on one connection. */
async function rawDatabase() {
  const url = process.env["TEST_DATABASE_URL"];
  if (!url) {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    const client = new PGlite();
    return {
      exec: async (text: string) => void (await client.exec(text)),
      query: async <T>(text: string) => (await client.query<T>(text)).rows,
      migrate: (folder: string) => migrate(drizzle({ client }), { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const name = `portal_migration_${randomToken()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")}`.slice(0, 40);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  return {
    exec: async (text: string) => void (await client.query(text)),
    query: async <T>(text: string) => (await client.query(text)).rows as T[],
    migrate: (folder: string) => migrate(drizzle({ client }), { migrationsFolder: folder }),
    close: async () => {
      await client.end();
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    },
  };
}
