// `node scripts/proof/alertKill.ts [--rounds N]`: alert delivery with two instances on one
// PostgreSQL, one of them killed with SIGKILL while they deliver (issue 34). 200 rules on one
// channel, each mailing its own address and posting to one webhook receiver; every round a push
// triggers 200 alarms (then one clears them), instance A is killed at a random moment of the
// delivery and started again. At the end every queued notice must be settled, each mail stored
// exactly once (outbox rows = email deliveries, per address), and every webhook event received
// (re-posts after a kill carry the same event id: counted, not failed). Exits 1 otherwise.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";
import { sha256, randomToken } from "../../server/core/crypto.ts";
import { openDatabase, rows } from "../../server/db/client.ts";
import { devices } from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/index.ts";
import { PG_URL } from "./target.ts";

const { values } = parseArgs({ options: { rounds: { type: "string" } } });
const ROUNDS = Number(values.rounds ?? 5);
const RULES = 200;
const MAC = "00:1A:2B:3C:4D:01";
const CHANNEL = `${MAC}_W1A001_1200_0_1`;
const KEY = randomToken();
const PORTS = [4590, 4591];

const { default: pg } = await import("pg");
const admin = async (query: string) => {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  await client.query(query);
  await client.end();
};
const name = `proof_alerts_${randomBytes(4).toString("hex")}`;
await admin(`create database ${name}`);
const url = new URL(PG_URL);
url.pathname = `/${name}`;
const database = await openDatabase({ url: url.toString() });
const { db } = database;

const events: string[] = [];
const hook = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    events.push(String(req.headers["x-portal-event-id"]));
    res.end();
  });
});
await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`;

function start(port: number): Promise<ChildProcess> {
  const { VITEST_SCRYPT_N: _cheap, ...env } = process.env;
  const child = spawn(process.execPath, ["server/index.ts"], {
    env: {
      ...env,
      DATABASE_URL: url.toString(),
      PORT: String(port),
      DEMO: "0",
      SERVE_STATIC: "0",
      LOG_REQUESTS: "0",
      ALERT_TICK_MS: "200",
      WEBHOOK_PRIVATE: "loopback",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return (async () => {
    for (let i = 0; i < 150; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return child;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`instance on ${port} did not start`);
  })();
}

const queued = async () =>
  (
    await rows<{ n: number }>(db, sql`select count(*)::int as n from alert_deliveries where state = 'queued'`)
  )[0]!.n;

let failed = false;
const instances: ChildProcess[] = [];
try {
  await seedDemo(db, { now: new Date(), sampleDays: 0 });
  await db
    .update(devices)
    .set({ ingestKeyHash: sha256(KEY) })
    .where(eq(devices.macAddress, MAC));
  const [target] = await rows<{ sub: number; channel: number }>(
    db,
    sql`select d.subscription_id as sub, c.id as channel from devices d, channels c
        where d.mac_address = ${MAC} and c.channel_key = ${CHANNEL}`,
  );
  await db.execute(sql`insert into alert_rules (subscription_id, name, kind, channel_id, channel_kind, high, notify)
    select ${target!.sub}, 'proof ' || g, 'above', ${target!.channel}, 'temperature', 8,
      jsonb_build_object('userIds', '[]'::jsonb, 'emails', jsonb_build_array('proof' || g || '@example.net'),
        'webhookUrls', jsonb_build_array(${hookUrl}::text))
    from generate_series(1, ${RULES}) g`);
  instances.push(await start(PORTS[0]!), await start(PORTS[1]!));
  let second = Math.floor(Date.now() / 1000);
  const push = async (value: number) => {
    second += 1;
    const res = await fetch(`http://127.0.0.1:${PORTS[1]}/api/v1/device-data/push`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Device ${KEY}` },
      body: JSON.stringify({ macAddress: MAC, readings: [{ channelKey: CHANNEL, value, time: second }] }),
    });
    if (res.status !== 200) throw new Error(`push answered ${res.status}`);
  };
  const started = performance.now();
  for (let round = 0; round < ROUNDS * 2; round++) {
    await push(round % 2 === 0 ? 9 : 5);
    // Instance A dies somewhere in the delivery, and comes back.
    await new Promise((r) => setTimeout(r, 50 + Math.floor(Math.random() * 600)));
    instances[0]!.kill("SIGKILL");
    instances[0] = await start(PORTS[0]!);
    // Leased webhooks of the killed instance come back after the lease (60 s).
    const until = Date.now() + 180_000;
    while ((await queued()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 500));
  }
  const [counts] = await rows<{
    email: number;
    webhook: number;
    queued: number;
    failed: number;
    events: number;
  }>(
    db,
    sql`select count(*) filter (where channel = 'email')::int as email,
          count(*) filter (where channel = 'webhook')::int as webhook,
          count(*) filter (where state = 'queued')::int as queued,
          count(*) filter (where state = 'failed')::int as failed,
          count(distinct event_id) filter (where channel = 'webhook')::int as events
        from alert_deliveries`,
  );
  const [mail] = await rows<{ n: number; mismatched: number }>(
    db,
    sql`select (select count(*)::int from outbox) as n,
          (select count(*)::int from (
            select recipient, count(*) as d from alert_deliveries where channel = 'email' group by recipient) d
            full join (select "to", count(*) as m from outbox group by "to") o on o."to" = d.recipient
            where coalesce(d.d, 0) <> coalesce(o.m, 0)) as mismatched`,
  );
  const distinct = new Set(events).size;
  const expected = ROUNDS * 2 * RULES;
  console.log(
    `\n| alerts, 2 instances, ${ROUNDS * 2} kills -9 | queued notices | mails stored | addresses with a wrong count | webhook events received | re-posted (same event id) | still queued / given up | seconds |\n|---|---:|---:|---:|---:|---:|---:|---:|`,
  );
  console.log(
    `| PostgreSQL | ${counts!.email} mail + ${counts!.webhook} webhook | ${mail!.n} | ${mail!.mismatched} | ${distinct} of ${counts!.events} | ${events.length - distinct} | ${counts!.queued} / ${counts!.failed} | ${((performance.now() - started) / 1000).toFixed(0)} |`,
  );
  failed =
    counts!.email !== expected ||
    mail!.n !== expected ||
    mail!.mismatched !== 0 ||
    distinct !== counts!.events ||
    counts!.events !== expected ||
    counts!.queued !== 0 ||
    counts!.failed !== 0;
  if (failed) console.log("FAILED: a notice was lost, doubled or left undelivered.");
} finally {
  for (const child of instances) child.kill("SIGKILL");
  hook.close();
  await database.close();
  await admin(`drop database if exists ${name} with (force)`);
}
process.exit(failed ? 1 : 0);
