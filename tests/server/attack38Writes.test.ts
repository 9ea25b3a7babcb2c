import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { replicaRouter, type ReadRouter } from "../../server/data/readRouter.ts";
import { sharedSecret } from "../../server/data/serverSecrets.ts";
import { writesSeenRows } from "../../server/db/requestWrites.ts";
import { WROTE_SECRET, wroteValue } from "../../server/http/wroteCookie.ts";
import { browser, signIn } from "./client.ts";
import { orderRef } from "./guestPayKit.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { cachingApp, TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

/*
 * Attack review of 2026-11-29, findings 2 and 3: an anonymous POST that wrote nothing (a
 * sign-out without a session, the email check of an unknown address) emptied the answer cache
 * and set the read-after-write cookie; and `portal_wrote=1`, a constant, sent anyone's reads
 * to the primary. Now only a request that wrote empties the cache and gets the cookie, and the
 * cookie is an expiry signed with a secret the instances share.
 */

const ORIGIN = "http://localhost";
const ORDER = 5003;
const orderPath = `/api/v1/orders/public/${orderRef(ORDER)}`;
/** Anonymous POSTs that change nothing anyone reads. */
const NO_OPS: [string, Record<string, string>][] = [
  ["/gateway/logout", {}],
  ["/gateway/check-email", { emailAddress: "nobody-here@example.com" }],
];
const postForm = (app: ReturnType<typeof buildApp>, path: string, fields: Record<string, string>) =>
  app.request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

describe("what counts as a write", () => {
  it.each([
    [`insert into "sessions" ("id") values ($1)`, true],
    [`update "orders" set "tax" = $1`, true],
    [`delete from sessions where id = $1`, true],
    [
      `with moved as (update alarms a set state = 'open' where a.id = 1 returning a.id) select * from moved`,
      true,
    ],
    [`insert into rate_limits as r (key, events) values ($1, array[$2])`, false],
    [`insert into audit_log (subscription_id, at, actor_kind) values ($1, $2, $3) returning id`, false],
    [`select id from devices where id = any($1) order by id for update`, false],
    [`with d as (select 1) select * from d`, false],
  ])("%s: %s", (query, writes) => {
    expect(writesSeenRows(query)).toBe(writes);
  });
});

describe("the answer cache and anonymous no-op posts", () => {
  const ctx = useTestApp({ seeded: true });
  let app: ReturnType<typeof buildApp>;
  beforeAll(() => {
    app = cachingApp(ctx.database.db);
  });
  const taxOf = async () =>
    (await (await app.request(`${ORIGIN}${orderPath}`)).json()).data.orderDetails.taxCents;

  it("keeps the cache through anonymous posts that wrote nothing, and empties it on a write", async () => {
    const first = await taxOf();
    await ctx.database.db.execute(sql`update orders set tax = ${first + 100} where id = ${ORDER}`);
    for (const [path, fields] of NO_OPS) {
      const res = await postForm(app, path, fields);
      expect([path, res.status < 300]).toEqual([path, true]);
    }
    expect(await taxOf()).toBe(first);
    // A sign-in writes a session: that empties it.
    await signIn(browser(app), "viewer@example.com");
    expect(await taxOf()).toBe(first + 100);
  });

  it("reuses the public device page's answer until a write on this instance", async () => {
    const path = `${ORIGIN}/api/v1/device-data/public/device-details/${DEMO.raDeviceHash}`;
    const nameOf = async () => (await (await app.request(path)).json()).data.device.general.name as string;
    const before = await nameOf();
    await ctx.database.db.execute(
      sql`update devices set name = 'Renamed elsewhere' where public_page_hash = ${DEMO.raDeviceHash}`,
    );
    expect(await nameOf()).toBe(before);
    expect(
      (await app.request(`${ORIGIN}/api/v1/device-data/public/device-details/${"A".repeat(24)}`)).status,
    ).toBe(404);
    await signIn(browser(app), "viewer@example.com");
    expect(await nameOf()).toBe("Renamed elsewhere");
  });
});

describe("the read-after-write cookie", () => {
  const ctx = useTestApp({ seeded: true });
  let reads: ReadRouter;
  let app: ReturnType<typeof buildApp>;
  beforeAll(async () => {
    // The database as its own replica: which side a read went to is in the router's figures.
    let ms = 0;
    reads = replicaRouter({
      primary: ctx.database.db,
      replica: ctx.database.db,
      maxLagSeconds: 5,
      now: () => ++ms,
    });
    await reads.probe();
    app = buildApp({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW, reads });
  });
  afterAll(() => reads.close());
  /** Reads the public order with these cookies; true when the read went to the primary as after a write. */
  const readAfterWrite = async (cookie: string) => {
    const before = reads.figures().afterWrite;
    const res = await app.request(`${ORIGIN}${orderPath}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    return reads.figures().afterWrite > before;
  };

  it("is not set by anonymous posts that wrote nothing", async () => {
    for (const [path, fields] of NO_OPS) {
      const res = await postForm(app, path, fields);
      expect([path, res.headers.getSetCookie().filter((c) => c.startsWith("portal_wrote"))]).toEqual([
        path,
        [],
      ]);
    }
  });

  it("is a signed expiry that sends its own reads to the primary, and a forged one does not", async () => {
    const b = browser(app);
    const written = await signIn(b, "admin@example.com");
    const set = written.headers.getSetCookie().find((c) => c.startsWith("portal_wrote="))!;
    const value = /^portal_wrote=([^;]+)/.exec(set)![1]!;
    expect(value).toMatch(/^\d+\.[A-Za-z0-9_-]{22}$/);
    expect(set).toMatch(/Max-Age=(\d);/);
    // This instance reads the primary after its own write until its replica holds it.
    await reads.probe();
    expect(await readAfterWrite(`portal_wrote=${value}`)).toBe(true);
    const nowS = Math.floor(Date.now() / 1000);
    const [expiry, mac] = value.split(".");
    for (const forged of [
      "1",
      `${Number(expiry) + 1}.${mac}`,
      `${expiry}.${"A".repeat(22)}`,
      wroteValue("another-secret", nowS, 5),
      // Signed with the right secret, but past its time, or longer-lived than the router allows.
      wroteValue(await sharedSecret(ctx.database.db, WROTE_SECRET), nowS - 10, 5),
      wroteValue(await sharedSecret(ctx.database.db, WROTE_SECRET), nowS, 3600),
    ])
      expect([forged, await readAfterWrite(`portal_wrote=${forged}`)]).toEqual([forged, false]);
    expect(
      await readAfterWrite(
        `portal_wrote=${wroteValue(await sharedSecret(ctx.database.db, WROTE_SECRET), nowS, 5)}`,
      ),
    ).toBe(true);
  });
});
