import { get } from "node:http";
import { desc, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { randomToken, sha256 } from "../../server/core/crypto.ts";
import { devices, outbox } from "../../server/db/schema/index.ts";
import { defaultLiveHub, type PortalLiveHub } from "../../server/live.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { LIVE_PATH } from "../../src/api/live.ts";
import { deviceId, NO_SUCH_ID, ORIGIN, RA_MAC, signedIn } from "./deviceTestKit.ts";
import type { Browser } from "./client.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";
import { cookieOf, openLive, serveApp, type LiveClient } from "./liveKit.ts";
import { rowsOf } from "./ownership.ts";

const KEY = randomToken();
const COLD_TEMP = `${RA_MAC}_W1A001_1200_0_1`;
const HIDDEN_GROUP = `${RA_MAC}_W1A005_1200_0`;
const NOT_FOUND = { type: "refused", status: 404, message: "Not found." };
const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);

describe("live readings over the websocket", () => {
  const ctx = useTestApp({ seeded: true });
  let hub: PortalLiveHub;
  let served: Awaited<ReturnType<typeof serveApp>>;
  let lab: number;
  const sockets: LiveClient[] = [];

  beforeAll(async () => {
    // The heartbeat runs only when a test calls hub.beat(): a long interval keeps the timer out.
    hub = defaultLiveHub(ctx.database.db, () => TEST_NOW, 3_600_000);
    const app = buildApp({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW, live: hub });
    served = await serveApp(app);
  });
  beforeEach(async () => {
    const db = ctx.database.db;
    await db
      .update(devices)
      .set({ ingestKeyHash: sha256(KEY) })
      .where(eq(devices.macAddress, RA_MAC));
    lab = await deviceId(db, "Lab Base Station");
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.socket.terminate();
  });
  afterAll(async () => {
    await hub.close();
    await served.close();
  });

  const open = async (opts: { email?: string; origin?: string } = {}) => {
    const cookie = opts.email ? cookieOf(await signedIn(ctx, opts.email)) : "";
    const client = await openLive(served.origin, { cookie, ...(opts.origin ? { origin: opts.origin } : {}) });
    sockets.push(client);
    return client;
  };
  const push = (value: number) =>
    fetch(`${served.origin}/api/v1/device-data/push`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Device ${KEY}` },
      body: JSON.stringify({ macAddress: RA_MAC, uptime: 777, readings: [{ channelKey: COLD_TEMP, value }] }),
    });

  it("sends the state on subscribe and a pushed reading within 2 s, through the real push endpoint", async () => {
    const live = await open({ email: "viewer@example.com" });
    live.send({ type: "subscribe", deviceId: lab });
    const first = await live.next("state");
    expect(first).toMatchObject({ cause: "subscribe", deviceId: lab, readings: { [COLD_TEMP]: 4.2 } });
    const started = Date.now();
    expect((await push(6.75)).status).toBe(200);
    const pushed = await live.next("state", 2000, (m) => m.cause === "push");
    const ms = Date.now() - started;
    console.log(`Live: a push reached its watcher in ${ms} ms.`);
    expect(ms).toBeLessThan(2000);
    expect(pushed).toMatchObject({
      deviceId: lab,
      lastMessageTimestamp: NOW_S,
      pushStatus: 1,
      uptime: 777,
      status: "pushing",
      readings: { [COLD_TEMP]: 6.75 },
      groups: { [`${RA_MAC}_W1A001_1200_0`]: NOW_S },
    });
  });

  it("refuses another subscription's device exactly like a missing one, and closes", async () => {
    const foreign = await open({ email: "owner@northwind.example.com" });
    foreign.send({ type: "subscribe", deviceId: lab });
    expect(await foreign.next("refused")).toEqual(NOT_FOUND);
    expect(await foreign.closed).toBe(4404);
    const missing = await open({ email: "owner@northwind.example.com" });
    missing.send({ type: "subscribe", deviceId: NO_SUCH_ID });
    expect(await missing.next("refused")).toEqual(NOT_FOUND);
    expect(foreign.messages).toEqual(missing.messages);
  });

  it("refuses a device subscription without a session (401) and before the terms (403)", async () => {
    const anonymous = await open();
    anonymous.send({ type: "subscribe", deviceId: lab });
    expect(await anonymous.next("refused")).toMatchObject({ status: 401, message: "You are not signed in." });
    expect(await anonymous.closed).toBe(4401);
    const newcomer = await open({ email: "newhire@example.com" });
    newcomer.send({ type: "subscribe", deviceId: lab });
    expect(await newcomer.next("refused")).toMatchObject({ status: 403 });
  });

  it("watches by public page hash without the hidden sensors, and refuses a deleted hash at once", async () => {
    const visitor = await open();
    visitor.send({ type: "subscribe", publicPageHash: DEMO.raDeviceHash });
    const state = await visitor.next("state");
    expect(state.readings[COLD_TEMP]).toBe(4.2);
    expect(Object.keys(state.groups)).not.toContain(HIDDEN_GROUP);
    expect(Object.keys(state.readings).some((k) => k.startsWith(HIDDEN_GROUP))).toBe(false);
    expect(state.sensors.map((s) => s.macAddress)).not.toContain("W1A005");

    const admin = await signedIn(ctx, "admin@example.com");
    expect((await admin.delete(`/api/v1/device-data/public-link/${lab}`)).status).toBe(200);
    const late = await open();
    late.send({ type: "subscribe", publicPageHash: DEMO.raDeviceHash });
    expect(await late.next("refused")).toEqual(NOT_FOUND);
  });

  it("ends a public watch when an announcement or a heartbeat finds its hash deleted or regenerated", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const byAnnouncement = await open();
    byAnnouncement.send({ type: "subscribe", publicPageHash: DEMO.raDeviceHash });
    await byAnnouncement.next("state");
    expect((await admin.json(`/api/v1/device-data/public-link/${lab}`, {})).status).toBe(200);
    await hub.refresh(lab);
    expect(await byAnnouncement.next("refused")).toEqual(NOT_FOUND);

    const { publicPageHash } = (
      await rowsOf<{ publicPageHash: string }>(
        ctx.database.db,
        sql`select public_page_hash as "publicPageHash" from devices where id = ${lab}`,
      )
    )[0]!;
    const byHeartbeat = await open();
    byHeartbeat.send({ type: "subscribe", publicPageHash });
    await byHeartbeat.next("state");
    await admin.delete(`/api/v1/device-data/public-link/${lab}`);
    await hub.beat();
    expect(await byHeartbeat.next("refused")).toEqual(NOT_FOUND);
    expect(await byHeartbeat.closed).toBe(4404);
  });

  it("beats, and ends a signed-in watch at the heartbeat after its session ends", async () => {
    const person = await signedIn(ctx, "manager@example.com");
    const live = await openLive(served.origin, { cookie: cookieOf(person) });
    sockets.push(live);
    live.send({ type: "subscribe", deviceId: lab });
    await live.next("state");
    await hub.beat();
    expect(await live.next("heartbeat")).toEqual({ type: "heartbeat", time: NOW_S });
    expect((await person.form("/gateway/logout", {})).status).toBe(200);
    await hub.beat();
    expect(await live.next("refused")).toMatchObject({ status: 401, message: "You are not signed in." });
  });

  it.each([
    ["signs out", async (b: Browser) => b.form("/gateway/logout", {})],
    [
      "is signed out everywhere else",
      async (_: Browser, other: Browser) => other.delete("/api/v1/account/sessions/others"),
    ],
    [
      "has its password reset",
      async (_: Browser, other: Browser) => {
        await other.form("/gateway/request-password-reset", { emailAddress: "manager@example.com" });
        const [mail] = await ctx.database.db.select().from(outbox).orderBy(desc(outbox.id)).limit(1);
        const token = /token=([\w-]+)/.exec(mail!.text)![1]!;
        return other.form("/gateway/reset-password", { token, password: "a-brand-new-password" });
      },
    ],
  ])(
    "closes a signed-in watch at once, without a heartbeat, when its browser %s (issue 32)",
    async (_, end) => {
      const person = await signedIn(ctx, "manager@example.com");
      const other = await signedIn(ctx, "manager@example.com");
      const live = await openLive(served.origin, { cookie: cookieOf(person) });
      const bystander = await openLive(served.origin, {
        cookie: cookieOf(await signedIn(ctx, "admin@example.com")),
      });
      sockets.push(live, bystander);
      live.send({ type: "subscribe", deviceId: lab });
      bystander.send({ type: "subscribe", deviceId: lab });
      await Promise.all([live.next("state"), bystander.next("state")]);
      expect((await end(person, other)).status).toBe(200);
      expect(await live.next("refused", 2000)).toMatchObject({
        status: 401,
        message: "You are not signed in.",
      });
      expect(await live.closed).toBe(4401);
      expect((await push(-7.5)).status).toBe(200);
      expect(await bystander.next("state", 2000, (m: { cause: string }) => m.cause === "push")).toBeTruthy();
    },
  );

  it("answers a message it cannot read and keeps the socket open", async () => {
    const live = await open();
    live.send("not json");
    expect(await live.next("error")).toEqual({ type: "error", message: "Messages must be JSON." });
    live.send({ type: "subscribe", deviceId: "1" });
    await live.next("error", 2000, (m) => m.message.startsWith("Send"));
    live.send({ type: "subscribe", publicPageHash: DEMO.raDeviceHash });
    await live.next("state");
  });

  it("refuses the handshake from another site's page", async () => {
    await expect(openLive(served.origin, { origin: "https://evil.example" })).rejects.toThrow(/403/);
  });

  it("answers 426, never 500, to a websocket request that is not an upgrade (no Connection: upgrade)", async () => {
    const status = await new Promise<number | undefined>((resolve, reject) =>
      get(`${served.origin}${LIVE_PATH}`, { headers: { upgrade: "websocket" } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on("error", reject),
    );
    expect(status).toBe(426);
  });

  it("answers a plain request for the socket address with 426", async () => {
    const res = await ctx.app.request(`${ORIGIN}${LIVE_PATH}`);
    expect(res.status).toBe(426);
    expect(await res.json()).toEqual({
      success: false,
      data: [{ field: null, message: "This address takes websocket connections only." }],
    });
  });
});
