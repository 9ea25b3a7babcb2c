import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomToken, sha256 } from "../../server/core/crypto.ts";
import { openDatabase } from "../../server/db/client.ts";
import { devices } from "../../server/db/schema/index.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { seedDemo } from "../../server/seed/index.ts";
import { openLive, type LiveClient } from "./liveKit.ts";

/*
 * Two server instances (`node server/index.ts`, as in production) on one PostgreSQL: a push to
 * one reaches the sockets of the other through LISTEN/NOTIFY. Runs where TEST_DATABASE_URL
 * names a PostgreSQL server (CI's PostgreSQL pass); skipped on the embedded database.
 */

const URL_OF_SERVER = process.env["TEST_DATABASE_URL"];
const RA_MAC = "00:1A:2B:3C:4D:01";
const COLD_TEMP = `${RA_MAC}_W1A001_1200_0_1`;
const KEY = randomToken();

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
  probe.close();
  return port;
}

/** Starts `node server/index.ts` on the database and waits until it answers /healthz. */
async function startInstance(databaseUrl: string) {
  const port = await freePort();
  // The tests' cheaper password hash is refused by a real portal (server/index.ts).
  const { VITEST_SCRYPT_N: _cheap, ...env } = process.env;
  const child = spawn(process.execPath, ["server/index.ts"], {
    env: {
      ...env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      DEMO: "0",
      SERVE_STATIC: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`instance stopped: ${output}`);
    const ok = await fetch(`${origin}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, origin, output: () => output };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`instance did not start: ${output}`);
}

/** The session cookie of a sign-in on that instance. */
async function signInAt(origin: string, email: string): Promise<string> {
  const res = await fetch(`${origin}/gateway/submit`, {
    method: "POST",
    headers: { origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ emailAddress: email, password: "demo-password-1" }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

describe.skipIf(!URL_OF_SERVER)("live readings across two server instances on one PostgreSQL", () => {
  const name = `portal_live_${randomBytes(6).toString("hex")}`;
  const databaseUrl = (() => {
    const u = new URL(URL_OF_SERVER ?? "postgres://unused/x");
    u.pathname = `/${name}`;
    return u.toString();
  })();
  const instances: Awaited<ReturnType<typeof startInstance>>[] = [];
  const sockets: LiveClient[] = [];
  let labId: number;

  const admin = async (sql: string) => {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: URL_OF_SERVER });
    await client.connect();
    await client.query(sql);
    await client.end();
  };

  beforeAll(async () => {
    await admin(`create database ${name}`);
    const database = await openDatabase({ url: databaseUrl });
    await seedDemo(database.db, { now: new Date(), sampleDays: 0 });
    const [lab] = await database.db
      .update(devices)
      .set({ ingestKeyHash: sha256(KEY) })
      .where(eq(devices.macAddress, RA_MAC))
      .returning({ id: devices.id });
    labId = lab!.id;
    await database.close();
    instances.push(...(await Promise.all([startInstance(databaseUrl), startInstance(databaseUrl)])));
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.socket.terminate();
    for (const { child } of instances) if (child.exitCode === null) child.kill("SIGKILL");
    await Promise.all(instances.map(({ child }) => (child.exitCode === null ? once(child, "exit") : null)));
    await admin(`drop database if exists ${name}`);
  }, 60_000);

  it("shows a push to one instance on the sockets of the other within 2 s", async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const owner = await openLive(b.origin, { cookie: await signInAt(b.origin, "admin@example.com") });
    const visitor = await openLive(b.origin);
    sockets.push(owner, visitor);
    owner.send({ type: "subscribe", deviceId: labId });
    visitor.send({ type: "subscribe", publicPageHash: DEMO.raDeviceHash });
    await Promise.all([owner.next("state", 5000), visitor.next("state", 5000)]);

    const started = Date.now();
    const res = await fetch(`${a.origin}/api/v1/device-data/push`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Device ${KEY}` },
      body: JSON.stringify({ macAddress: RA_MAC, readings: [{ channelKey: COLD_TEMP, value: -3.25 }] }),
    });
    expect(res.status).toBe(200);
    const pushed = (m: { cause: string; readings: Record<string, number | null> }) =>
      m.cause === "push" && m.readings[COLD_TEMP] === -3.25;
    await Promise.all([owner.next("state", 2000, pushed), visitor.next("state", 2000, pushed)]);
    console.log(
      `Live across instances: a push to one reached the other's sockets in ${Date.now() - started} ms.`,
    );
  });

  it("closes a socket on one instance at once when its session signs out on the other", async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const cookie = await signInAt(a.origin, "manager@example.com");
    const live = await openLive(b.origin, { cookie });
    sockets.push(live);
    live.send({ type: "subscribe", deviceId: labId });
    await live.next("state", 5000);
    const out = await fetch(`${a.origin}/gateway/logout`, {
      method: "POST",
      headers: { origin: a.origin, cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(out.status).toBe(200);
    // The heartbeat is 20 s: only the announcement can end it this fast.
    expect(await live.next("refused", 3000)).toMatchObject({ status: 401 });
  });

  it("tells its sockets to go away when an instance stops, and the stop finishes", async () => {
    const b = instances[1]!;
    const live = await openLive(b.origin);
    sockets.push(live);
    live.send({ type: "subscribe", publicPageHash: DEMO.raDeviceHash });
    await live.next("state", 5000);
    b.child.kill("SIGTERM");
    expect(await live.closed).toBe(1001);
    const [code] = (await once(b.child, "exit")) as [number];
    expect(code, b.output()).toBe(0);
  }, 30_000);
});
