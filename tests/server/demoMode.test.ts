import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { parseConfig } from "../../server/config.ts";
import { devices } from "../../server/db/schema/index.ts";
import { DEMO_LOCAL_ONLY, MAILBOX_LOCAL_ONLY } from "../../server/http/local.ts";
import { randomToken, sha256 } from "../../server/core/crypto.ts";
import { demoDeviceKey } from "../../server/seed/keys.ts";
import { BAD_DEVICE_KEY } from "../../server/data/ingest.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

const MAC = "00:1A:2B:3C:4D:01";
const CHANNEL = `${MAC}_W1A001_1200_0_1`;

/** What @hono/node-server passes the app for a connection from this address (app.request has none). */
const socketFrom = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });
const LOCAL = socketFrom("127.0.0.1");
const REMOTE = socketFrom("203.0.113.7");

describe("demo mode", () => {
  const ctx = useTestApp({ seeded: true });
  const appWith = (env: Record<string, string | undefined>) =>
    buildApp({ db: ctx.database.db, config: parseConfig(env), now: () => TEST_NOW });
  // DEMO unset with the embedded database: `npm start`'s demo, for this computer only.
  const localDemo = () => appWith({});
  const sharedDemo = () => appWith({ DEMO: "1", ALLOWED_HOSTS: "demo.example" });

  it("shows the mailbox to a loopback client with a loopback Host", async () => {
    for (const app of [localDemo(), sharedDemo()]) {
      const res = await app.request("http://localhost:4321/dev/mailbox", {}, LOCAL);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("refuses the mailbox to another machine, even when DEMO=1 shares the demo", async () => {
    for (const app of [localDemo(), sharedDemo()]) {
      const res = await app.request("http://localhost:4321/dev/mailbox", {}, REMOTE);
      expect(res.status).toBe(403);
    }
    const res = await sharedDemo().request("http://localhost:4321/dev/mailbox", {}, REMOTE);
    expect(await res.text()).toBe(MAILBOX_LOCAL_ONLY);
  });

  it("refuses the mailbox through a non-loopback Host or a proxy, even on this computer", async () => {
    const byName = await sharedDemo().request("http://demo.example/dev/mailbox", {}, LOCAL);
    expect(byName.status).toBe(403);
    const proxied = await sharedDemo().request(
      "http://localhost:4321/dev/mailbox",
      { headers: { "x-forwarded-for": "198.51.100.4" } },
      LOCAL,
    );
    expect(proxied.status).toBe(403);
    for (const header of ["x-forwarded-proto", "cf-connecting-ip", "true-client-ip", "x-client-ip"]) {
      const relayed = await sharedDemo().request(
        "http://localhost:4321/dev/mailbox",
        { headers: { [header]: "198.51.100.4" } },
        LOCAL,
      );
      expect(relayed.status, header).toBe(403);
    }
  });

  it("refuses the mailbox when the client address is unknown", async () => {
    expect((await sharedDemo().request("http://localhost:4321/dev/mailbox")).status).toBe(403);
  });

  it("answers only this computer when demo mode is on by default", async () => {
    const app = localDemo();
    const remote = await app.request("http://localhost:4321/api/v1/session", {}, REMOTE);
    expect(remote.status).toBe(403);
    expect((await remote.json()).data).toEqual([{ field: null, message: DEMO_LOCAL_ONLY }]);
    const local = await app.request("http://localhost:4321/api/v1/session", {}, LOCAL);
    expect(local.status).toBe(401);
  });

  it("answers other machines when DEMO=1 says so", async () => {
    const res = await sharedDemo().request("http://demo.example/api/v1/session", {}, REMOTE);
    expect(res.status).toBe(401);
  });

  it("has no mailbox without demo mode", async () => {
    const res = await buildApp({ db: ctx.database.db, config: testConfig() }).request(
      "http://localhost/dev/mailbox",
      {},
      LOCAL,
    );
    expect(res.status).toBe(404);
  });
});

describe("demo device keys", () => {
  const ctx = useTestApp({ seeded: true });
  const push = (demo: "0" | "1", key: string) =>
    buildApp({ db: ctx.database.db, config: testConfig({ DEMO: demo }), now: () => TEST_NOW }).request(
      "/api/v1/device-data/push",
      {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Device ${key}` },
        body: JSON.stringify({ macAddress: MAC, readings: [{ channelKey: CHANNEL, value: 5 }] }),
      },
    );

  it("do not work when demo mode is off", async () => {
    const res = await push("0", demoDeviceKey(MAC));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ success: false, data: [{ field: null, message: BAD_DEVICE_KEY }] });
  });

  it("work in demo mode, where the simulator signs with them", async () => {
    expect((await push("1", demoDeviceKey(MAC))).status).toBe(200);
  });

  it("leave a device's own random key working when demo mode is off", async () => {
    const key = randomToken();
    await ctx.database.db
      .update(devices)
      .set({ ingestKeyHash: sha256(key) })
      .where(eq(devices.macAddress, MAC));
    expect((await push("0", key)).status).toBe(200);
  });
});
