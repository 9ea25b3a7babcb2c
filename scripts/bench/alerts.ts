// Alerting's figures (issue 34), on the embedded database and on PostgreSQL when one answers:
// - breach to hand-off: a push past a rule until the webhook call arrives and the mail is in
//   the outbox, through the scheduler an instance runs (tick ALERT_TICK_MS, kicked by the push);
// - silence: 1,000 outages of a device, each found by the scheduler (ticking every 5 s of a
//   simulated clock) after its push interval + grace, and 10,000 on-time pushes with no alarm;
// - push cost: the median push with no rule and with 1,000 rules in the subscription.
// Run alone with `node scripts/bench/alerts.ts`; `npm run bench` runs it last.
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import { buildApp } from "../../server/app.ts";
import { parseConfig } from "../../server/config.ts";
import { openDatabase, rows, type Database } from "../../server/db/client.ts";
import { startAlertWork } from "../../server/core/repeatingJob.ts";
import { pushGate } from "../../server/core/keyLimiter.ts";
import { outboxStore } from "../../server/data/outbox.ts";
import { alertTask } from "../../server/flows/alertWork.ts";
import { runAlertTick } from "../../server/flows/alertScheduler.ts";
import { createMailer } from "../../server/services/mail.ts";
import { seedDemo } from "../../server/seed/index.ts";
import { demoDeviceKey } from "../../server/seed/keys.ts";
import { openPostgresBench } from "./postgres.ts";
import { median } from "./timing.ts";

const MAC = "00:1A:2B:3C:4D:03";
const CHANNEL = `${MAC}_WS2001_1300_0_1`;
const BREACHES = 40;
const OUTAGES = 1000;
const ON_TIME = 10_000;
const PUSHES = 200;

const pct = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1]!;

async function benchOne(label: string, database: Database) {
  const { db } = database;
  await seedDemo(db, { now: new Date(), sampleDays: 0 });
  await db.execute(sql`update subscriptions set limits = limits || '{"alerts": 5000}'::jsonb`);
  const config = parseConfig({ DATA_DIR: "/tmp/unused", DEMO: "1", SIMULATOR: "0", LOG_REQUESTS: "0" });
  const arrived: number[] = [];
  const hook = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      arrived.push(performance.now());
      res.end();
    });
  });
  await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
  const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`;
  const work = startAlertWork(
    alertTask({
      db,
      mailer: createMailer(outboxStore(db), undefined, () => new Date()),
      origin: "http://bench",
      webhookPrivate: "loopback",
    }),
    { intervalMs: config.alertTickMs },
  );
  // The per-key push limits (50 a second) are not what is measured here.
  const unlimited = {
    inFlight: 1e6,
    burst: 1e6,
    perSecond: 1e6,
    burstBytes: 1e12,
    bytesPerSecond: 1e12,
    maxKeys: 1e6,
  };
  const pushLimiter = pushGate({ limits: unlimited, unverifiedPerClient: 1e6, maxKnown: 1e6 });
  const app = buildApp({ db, config, alertWork: work, pushLimiter });
  const push = async (value: number) => {
    const res = await app.request("/api/v1/device-data/push", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Device ${demoDeviceKey(MAC)}` },
      body: JSON.stringify({ macAddress: MAC, readings: [{ channelKey: CHANNEL, value }] }),
    });
    if (res.status !== 200) throw new Error(`push answered ${res.status}: ${await res.text()}`);
  };
  const [sub] = await rows<{ id: number; channel: number; user: number }>(
    db,
    sql`select d.subscription_id as id, c.id as channel, (select id from users where email = 'admin@example.com') as user
        from devices d, channels c where d.mac_address = ${MAC} and c.channel_key = ${CHANNEL}`,
  );

  // Push cost without rules, then with 1,000 (one on the pushed channel, never breached).
  const pushTimes = async () => {
    const times: number[] = [];
    for (let i = 0; i < PUSHES; i++) {
      const started = performance.now();
      await push(-18 - (i % 5) * 0.1);
      times.push(performance.now() - started);
    }
    return median(times);
  };
  const bare = await pushTimes();
  const step = (what: string) => process.env["BENCH_VERBOSE"] && console.error(`${label}: ${what}`);
  step("pushes without rules timed");
  await db.execute(sql`insert into alert_rules (subscription_id, name, kind, channel_id, channel_kind, high, notify)
    select ${sub!.id}, 'bench ' || g, 'above', c.id, c.kind, 1000, '{"userIds":[],"emails":[],"webhookUrls":[]}'::jsonb
    from generate_series(1, 1000) g join lateral (select id, kind from channels order by random() limit 1) c on true`);
  await db.execute(
    sql`update alert_rules set channel_id = ${sub!.channel} where id = (select min(id) from alert_rules)`,
  );
  const ruled = await pushTimes();
  step("pushes with 1,000 rules timed");
  await db.execute(sql`delete from alert_rules`);

  // Breach to hand-off: each breach is cleared before the next.
  await db.execute(sql`insert into alert_rules (subscription_id, name, kind, channel_id, channel_kind, high, notify, created_by)
    values (${sub!.id}, 'bench breach', 'above', ${sub!.channel}, 'temperature', -10,
      ${JSON.stringify({ userIds: [], emails: ["bench@example.net"], webhookUrls: [hookUrl] })}::jsonb, ${sub!.user})`);
  const toHook: number[] = [];
  const toMail: number[] = [];
  for (let i = 0; i < BREACHES; i++) {
    const before = arrived.length;
    const [mailBefore] = await rows<{ n: number }>(db, sql`select count(*)::int as n from outbox`);
    // A new address each time: one address's fourth message in a minute waits for its digest.
    await db.execute(
      sql`update alert_rules set notify = jsonb_set(notify, '{emails}', ${JSON.stringify([`bench${i}@example.net`])}::jsonb)`,
    );
    const started = performance.now();
    await push(-5);
    step(`breach ${i} pushed`);
    while (arrived.length === before) await new Promise((r) => setTimeout(r, 5));
    toHook.push(arrived[before]! - started);
    step(`breach ${i} webhook`);
    for (;;) {
      const [now] = await rows<{ n: number }>(db, sql`select count(*)::int as n from outbox`);
      if (now!.n > mailBefore!.n) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    toMail.push(performance.now() - started);
    await push(-18);
    // The clearing's own notices go out before the next breach.
    while (arrived.length < before + 2) await new Promise((r) => setTimeout(r, 5));
  }
  step("breaches timed");
  work.stop();
  hook.close();
  await db.execute(sql`delete from alert_rules`);

  // Silence on a simulated clock: a device with a 600 s interval and a 120 s grace.
  const [dev] = await rows<{ id: number }>(db, sql`select id from devices where mac_address = ${MAC}`);
  await db.execute(sql`update devices set push_interval = 600 where id = ${dev!.id}`);
  await db.execute(sql`insert into alert_rules (subscription_id, name, kind, device_id, grace_seconds, notify)
    values (${sub!.id}, 'bench silent', 'offline', ${dev!.id}, 120, '{"userIds":[],"emails":[],"webhookUrls":[]}'::jsonb)`);
  const started = performance.now();
  let clock = Date.UTC(2027, 0, 1);
  const setLast = (ms: number) =>
    db.execute(sql`update devices set last_message_at = ${new Date(ms)} where id = ${dev!.id}`);
  const triggered = async () =>
    (
      await rows<{ n: number }>(
        db,
        sql`select count(*)::int as n from alarms where kind = 'offline' and state = 'triggered'`,
      )
    )[0]!.n;
  let falseAlarms = 0;
  for (let i = 0; i < ON_TIME; i++) {
    await setLast(clock);
    // The next push comes anywhere up to a second before the grace runs out; the scheduler looks just before it.
    const next = clock + 600_000 + Math.floor(Math.random() * 119_000);
    await runAlertTick(db, new Date(next - 1));
    falseAlarms += await triggered();
    clock = next;
  }
  const late: number[] = [];
  for (let i = 0; i < OUTAGES; i++) {
    await setLast(clock);
    const due = clock + 720_000;
    // Ticks every 5 s from a random phase, as instances tick.
    let t = due - 10_000 + Math.floor(Math.random() * 5000);
    while ((await runAlertTick(db, new Date(t)), await triggered()) === 0) t += 5000;
    late.push((t - due) / 1000);
    clock = t + 1000;
    await setLast(clock);
    await runAlertTick(db, new Date(clock + 1));
  }
  const silenceSeconds = (performance.now() - started) / 1000;
  const within = late.filter((s) => s <= 30).length;
  console.log(
    `| ${label} | ${bare.toFixed(1)} | ${ruled.toFixed(1)} (${(((ruled - bare) / bare) * 100).toFixed(0)} %) | ${median(toHook).toFixed(0)} / ${pct(toHook, 95).toFixed(0)} | ${pct(toMail, 95).toFixed(0)} | ${within} of ${OUTAGES} (latest ${Math.max(...late).toFixed(0)} s) | ${falseAlarms} of ${ON_TIME} | ${silenceSeconds.toFixed(0)} |`,
  );
}

export async function alertsBench() {
  console.log(
    "\n| alerts | push p50, no rules (ms) | push p50, 1,000 rules (ms) | breach to webhook p50 / p95 (ms) | breach to outbox p95 (ms) | outages found within grace + 30 s | false alarms over on-time pushes | silence run (s) |\n|---|---:|---:|---:|---:|---:|---:|---:|",
  );
  const embedded = await openDatabase({});
  try {
    await benchOne("PGlite", embedded);
  } finally {
    await embedded.close();
  }
  const pg = await openPostgresBench("bench_alerts");
  if (!pg) return console.log("| PostgreSQL | (no server answered) |");
  try {
    await benchOne("PostgreSQL", pg);
  } finally {
    await pg.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await alertsBench();
