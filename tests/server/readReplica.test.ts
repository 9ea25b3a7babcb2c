import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { parseConfig } from "../../server/config.ts";
import { driverNeutral, postgresPool } from "../../server/db/client.ts";
import * as schema from "../../server/db/schema/index.ts";
import { reports } from "../../server/db/schema/index.ts";
import { primaryLsn } from "../../server/data/replicaLag.ts";
import { replicaRouter, type ReadRouter, type ReplicaOptions } from "../../server/data/readRouter.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { browser, signIn } from "./client.ts";
import { captureConsole } from "./guestPayKit.ts";
import { openTestDatabase, TEST_NOW, testConfig, useTestApp } from "./helpers.ts";
import { seedForTests } from "./seedTemplate.ts";

/*
 * The read router (server/data/readRouter.ts) between a primary and a replica. A real hot
 * standby is too heavy for the suite (`npm run proof`'s replica part runs one): here a second
 * database with the same seed stands in, its report renamed, so an answer says which one read it.
 */

const ORIGIN = "http://localhost";
const ORDER = `ORD-${DEMO.orderId}-${DEMO.orderValidationId}`;
const REPORT = `/api/v1/device-data/public/report/${DEMO.reportHash}`;
const PUBLIC_READS = [
  REPORT,
  `/api/v1/device-data/public/report/data/${DEMO.reportHash}`,
  `/api/v1/device-data/public/report/marks/${DEMO.reportHash}`,
  `/api/v1/device-data/public/report/compliance/${DEMO.reportHash}`,
  `/public/report-svg/${DEMO.reportHash}`,
  `/api/v1/device-data/public/device-details/${DEMO.raDeviceHash}`,
  `/api/v1/orders/public/${ORDER}`,
  `/api/v1/shipments/shipment-list/${ORDER}`,
  `/api/v1/quotes/public/${DEMO.openQuoteToken}`,
  `/api/v1/orders-and-quotes/public/search?id=ORD-5003&contact=Dana%20Whitfield`,
];
const LOOPBACK = {
  incoming: { socket: { remoteAddress: "127.0.0.1", remotePort: 40000, remoteFamily: "IPv4" } },
};

captureConsole();

/** A pool's Db on a port where nothing listens: a replica that is away. */
async function awayReplica() {
  const pool = await postgresPool("postgres://postgres:postgres@127.0.0.1:1/portal", {
    connectTimeoutMs: 500,
  });
  return { db: driverNeutral(drizzle({ client: pool, schema })), close: () => pool.end() };
}

describe("the read router", () => {
  const ctx = useTestApp({ seeded: true });
  let replica: Awaited<ReturnType<typeof openTestDatabase>>;
  const routers: ReadRouter[] = [];
  beforeAll(async () => {
    const pg = !!process.env["TEST_DATABASE_URL"];
    replica = await openTestDatabase({ seeded: !pg });
    if (pg) await seedForTests(replica.db);
    await replica.db
      .update(reports)
      .set({ name: "Replica copy" })
      .where(eq(reports.publicHash, DEMO.reportHash));
  });
  afterAll(async () => {
    for (const r of routers) await r.close();
    await replica?.drop();
  });

  const router = (opts: Partial<ReplicaOptions> = {}) => {
    // A clock that moves a millisecond per look: a probe never goes stale on a busy machine,
    // and a write is always later than the probe before it.
    let ms = 0;
    const r = replicaRouter({
      primary: ctx.database.db,
      replica: replica.db,
      maxLagSeconds: 5,
      now: () => ++ms,
      ...opts,
    });
    routers.push(r);
    return r;
  };
  const appOn = (reads: ReadRouter) =>
    buildApp({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW, reads });
  const reportName = async (res: Response) => {
    expect(res.status).toBe(200);
    return (await res.json()).data.reportDetails.name as string;
  };

  it("sends each public read to the replica while it is fresh", async () => {
    const reads = router();
    await reads.probe();
    const app = appOn(reads);
    for (const path of PUBLIC_READS) {
      const before = reads.figures().reads;
      const res = await app.request(`${ORIGIN}${path}`, { headers: { origin: ORIGIN } }, LOOPBACK);
      const after = reads.figures().reads;
      expect([path, res.status, after.replica > before.replica, after.primary - before.primary]).toEqual([
        path,
        200,
        true,
        0,
      ]);
    }
    expect(await reportName(await app.request(`${ORIGIN}${REPORT}`))).toBe("Replica copy");
  });

  it("reads from the primary right after a write this instance answered, then from the replica once it holds it", async () => {
    const reads = router();
    await reads.probe();
    const app = appOn(reads);
    const b = browser(app);
    const written = await signIn(b, "admin@example.com");
    expect(written.headers.getSetCookie().some((c) => /^portal_wrote=\d+\.[A-Za-z0-9_-]{22};/.test(c))).toBe(
      true,
    );
    // Another visitor, on this instance, before the monitor has seen the write on the replica.
    expect(await reportName(await app.request(`${ORIGIN}${REPORT}`))).toBe("Lab Climate — Last 24 Hours");
    await reads.probe();
    expect(await reportName(await app.request(`${ORIGIN}${REPORT}`))).toBe("Replica copy");
    // The visitor who wrote still reads the primary: their cookie says they wrote.
    expect(await reportName(await b.get(REPORT))).toBe("Lab Climate — Last 24 Hours");
    expect(reads.figures().afterWrite).toBe(2);
    expect(reads.figures().fallbacks).toEqual({ away: 0, lag: 0, failed: 0 });
  });

  it("falls back to the primary when the replica does not answer", async () => {
    const away = await awayReplica();
    const reads = router({ replica: away.db, closeReplica: away.close });
    await reads.probe();
    const app = appOn(reads);
    for (const path of PUBLIC_READS)
      expect([path, (await app.request(`${ORIGIN}${path}`, {}, LOOPBACK)).status]).toEqual([path, 200]);
    expect(reads.figures()).toMatchObject({ up: false, lagSeconds: null, reads: { replica: 0 } });
    expect(reads.figures().fallbacks.away).toBeGreaterThanOrEqual(PUBLIC_READS.length);
  });

  it("retries a read on the primary when the replica fails between two probes", async () => {
    const away = await awayReplica();
    // The last probe found it up; it stopped since.
    const reads = router({
      replica: away.db,
      closeReplica: away.close,
      reading: async () => ({ kind: "writable" }),
    });
    await reads.probe();
    const app = appOn(reads);
    expect(await reportName(await app.request(`${ORIGIN}${REPORT}`))).toBe("Lab Climate — Last 24 Hours");
    expect(reads.figures()).toMatchObject({ up: false, fallbacks: { failed: 1, away: 0, lag: 0 } });
  });

  it("falls back to the primary while the replica lags more than the limit, and returns when it catches up", async () => {
    let clock = 1_000_000;
    // The first probe's replica holds what the primary flushed by the time it is asked (read
    // then, as other test files on the same cluster write meanwhile), and replays nothing after.
    let replayed: bigint | "now" = "now";
    const reads = router({
      now: () => clock,
      reading: async () => {
        if (replayed === "now") replayed = await primaryLsn(ctx.database.db);
        return { kind: "standby", replayed };
      },
    });
    await reads.probe();
    const app = appOn(reads);
    expect(await reportName(await app.request(`${ORIGIN}${REPORT}`))).toBe("Replica copy");
    // The primary moves on; the replica replays nothing for six seconds.
    await ctx.database.db
      .update(reports)
      .set({ name: sql`${reports.name}` })
      .where(eq(reports.publicHash, DEMO.reportHash));
    clock += 6000;
    await reads.probe();
    expect(reads.figures().lagSeconds).toBe(6);
    expect(await reportName(await app.request(`${ORIGIN}${REPORT}`))).toBe("Lab Climate — Last 24 Hours");
    expect(reads.figures().fallbacks.lag).toBe(1);
    // Caught up, and past whatever other tests on the same cluster write meanwhile (the WAL
    // position is the cluster's): the primary's position at the next probe is replayed too.
    replayed = 2n ** 62n;
    clock += 1000;
    await reads.probe();
    expect(reads.figures().lagSeconds).toBe(0);
    expect(await reportName(await app.request(`${ORIGIN}${REPORT}`))).toBe("Replica copy");
  });

  it("does not read from a replica that has replayed nothing the monitor has seen on the primary", async () => {
    const reads = router({ reading: async () => ({ kind: "standby", replayed: 0n }) });
    await reads.probe();
    expect(await reportName(await appOn(reads).request(`${ORIGIN}${REPORT}`))).toBe(
      "Lab Climate — Last 24 Hours",
    );
    expect(reads.figures().fallbacks).toEqual({ away: 0, lag: 1, failed: 0 });
  });

  it("shows the replica's lag and the fallbacks on /metrics", async () => {
    const away = await awayReplica();
    const reads = router({ replica: away.db, closeReplica: away.close });
    await reads.probe();
    const app = appOn(reads);
    await app.request(`${ORIGIN}${REPORT}`);
    const text = await (await app.request(`${ORIGIN}/metrics`, {}, LOOPBACK)).text();
    expect(text).toMatch(/^db_replica_up 0$/m);
    expect(text).toMatch(/^db_replica_lag_seconds nan$/im);
    expect(text).toMatch(/^db_replica_fallbacks_total\{reason="away"\} 1$/m);
    expect(text).toMatch(/^db_public_reads_total\{target="primary"\} 1$/m);
  });

  it("reads only the primary without DATABASE_READ_URL, and sets no cookie after a write", async () => {
    const app = buildApp({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW });
    expect(await reportName(await app.request(`${ORIGIN}${REPORT}`))).toBe("Lab Climate — Last 24 Hours");
    const written = await signIn(browser(app), "admin@example.com");
    expect(written.headers.getSetCookie().some((c) => c.startsWith("portal_wrote"))).toBe(false);
    const text = await (await app.request(`${ORIGIN}/metrics`, {}, LOOPBACK)).text();
    expect(text).not.toContain("db_replica");
  });

  it("refuses DATABASE_READ_URL without DATABASE_URL", () => {
    expect(() => parseConfig({ DEMO: "0", DATABASE_READ_URL: "postgres://replica/portal" })).toThrow(
      "DATABASE_READ_URL: a read replica needs DATABASE_URL (its primary) as well.",
    );
  });
});
