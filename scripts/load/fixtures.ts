// What the load run needs beyond the demo data, written straight into the database (as a
// seed does): a rolling 30-day report over the demo report's channels, people for the
// sign-in storm, and devices with 20 channels each for the ingestion driver.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../../server/db/client.ts";
import { sha256 } from "../../server/core/crypto.ts";
import { DEMO, DEMO_PASSWORD } from "../../server/seed/demo.ts";
import { demoDeviceKey } from "../../server/seed/keys.ts";

export const MONTH_REPORT_HASH = "load-month-report-0123456789";
export const CHANNELS_PER_DEVICE = 20;
export const STORM_PASSWORD = DEMO_PASSWORD;

/** The storm's people: at most 5 sign-ins of one address may be in flight (its failure window). */
export const stormEmail = (i: number) => `load-user-${i}@example.com`;
/** The ingestion driver's devices: MAC, key and channel keys follow from the index. */
export const loadMac = (i: number) => `LD:${String(i).padStart(6, "0")}`;
export const loadKey = (i: number) => sha256(`load-device-key:${i}`).slice(0, 43);
export const loadChannelKey = (i: number, c: number) =>
  `${loadMac(i)}_LS1_1200_${Math.floor(c / 4)}_${(c % 4) + 1}`;

const one = async <T>(db: Db, q: ReturnType<typeof sql>) => (await rows<T>(db, q))[0]!;

/** A report over the last 30 days (rolling) with the channels of the demo's 24-hour report. */
export async function addMonthReport(db: Db) {
  await db.execute(sql`insert into reports (subscription_id, name, public_hash, time_interval)
    select subscription_id, 'Load — Last 30 Days', ${MONTH_REPORT_HASH}, ${30 * 86_400}
    from reports where public_hash = ${DEMO.reportHash}`);
  await db.execute(sql`insert into report_channels (report_id, channel_id, color)
    select (select id from reports where public_hash = ${MONTH_REPORT_HASH}), rc.channel_id, rc.color
    from report_channels rc join reports r on r.id = rc.report_id where r.public_hash = ${DEMO.reportHash}`);
}

/** Copies of the demo viewer (same password hash and subscription) for the sign-in storm. */
export async function addStormUsers(db: Db, count: number) {
  await db.execute(sql`insert into users (email, first_name, last_name, password_hash, email_verified_at,
      terms_accepted_at, active_subscription_id)
    select 'load-user-' || i || '@example.com', 'Load', 'User ' || i, u.password_hash, u.email_verified_at,
      u.terms_accepted_at, u.active_subscription_id
    from users u, generate_series(0, ${count - 1}) i where u.email = 'viewer@example.com'`);
  await db.execute(sql`insert into user_assignments (user_id, subscription_id, role_id)
    select n.id, a.subscription_id, a.role_id from users n
    join users v on v.email = 'viewer@example.com'
    join user_assignments a on a.user_id = v.id
    where n.email like 'load-user-%@example.com'`);
}

/** The session token of load user i (its cookie's value); the database keeps its sha256 only. */
export const loadSessionToken = (i: number) => `load-session-token-${i}-0123456789abcdef`;

/**
 * A live session for each of the first `count` load users (addStormUsers), as if each had
 * signed in: the session check measured over many people, not one person's cached answer.
 */
export async function addLoadSessions(db: Db, count: number) {
  const values = Array.from(
    { length: count },
    (_, i) => sql`(${sha256(loadSessionToken(i))}, ${`load-user-${i}@example.com`})`,
  );
  await db.execute(sql`insert into sessions (id_hash, user_id, expires_at, browser)
    select v.id_hash, u.id, now() + interval '7 days', 'load'
    from (values ${sql.join(values, sql`, `)}) as v(id_hash, email) join users u on u.email = v.email`);
}

/**
 * `count` devices of the demo subscription, one sensor with 5 groups of 4 channels each, in
 * four set-based statements (keys and their hashes computed in SQL as loadKey does in JS).
 */
export async function addLoadDevices(db: Db, count: number, opts: { valueAt?: Date } = {}) {
  if (count <= 0) return;
  const valueAt = opts.valueAt
    ? sql`${opts.valueAt.toISOString()}::timestamptz`
    : sql`now() - interval '30 minutes'`;
  const key = sql`left(encode(sha256(convert_to('load-device-key:' || i, 'UTF8')), 'hex'), 43)`;
  await db.execute(sql`insert into devices (subscription_id, name, type, device_type, mac_address,
      serialnumber, ingest_key_hash, push_interval, rolled_until)
    select r.subscription_id, 'Load ' || i, 'RA12', 'RA12', 'LD:' || lpad(i::text, 6, '0'), 'SN-LOAD-' || i,
      encode(sha256(convert_to(${key}, 'UTF8')), 'hex'), 60,
      -- Folded as a running fleet's are (server/data/rollupFold.ts): 10 to 25 minutes behind,
      -- at phases spread over the quarter hour (they have no rollups yet, so any horizon holds).
      now() - make_interval(secs => 600 + (i * 719) % 900)
    from reports r, generate_series(0, ${count - 1}) i where r.public_hash = ${DEMO.reportHash}`);
  await db.execute(sql`insert into sensors (device_id, mac_address, kind, label, last_received_at)
    select id, 'LS1', 'wireless', 'Load sensor', timestamptz '2020-01-01 00:00:00+00' from devices where mac_address like 'LD:%'`);
  await db.execute(sql`insert into channel_groups (sensor_id, channel_key, group_type, group_index, last_received_at)
    select s.id, d.mac_address || '_LS1_1200_' || g, 1200, g, timestamptz '2020-01-01 00:00:00+00'
    from sensors s join devices d on d.id = s.device_id, generate_series(0, ${CHANNELS_PER_DEVICE / 4 - 1}) g
    where d.mac_address like 'LD:%'`);
  // A fleet that has pushed before: each channel holds a value, stored by the fold job as a
  // running fleet's are (server/data/channelValue.ts), half an hour before any push (tests on
  // a pinned clock pass their own time).
  await db.execute(sql`insert into channels (channel_group_id, channel_key, channel_type, kind, name, value, value_at)
    select g.id, g.channel_key || '_' || t, t, 'temperature', 'Channel ' || t, 20, ${valueAt}
    from channel_groups g, generate_series(1, 4) t where g.channel_key like 'LD:%'`);
  // A running fleet's tables have statistics: without them a push's channel lookup read every
  // channel group (a plan for a few hundred sensors), 16 ms instead of 0.1 ms, until
  // autovacuum came by.
  await db.execute(sql`analyze devices, sensors, channel_groups, channels`);
}

/** Each demo device's MAC, its demo key and its channel keys, for the push row of the table. */
export async function demoPushers(db: Db) {
  const found = await rows<{ mac: string; key: string }>(
    db,
    sql`select d.mac_address as mac, c.channel_key as key from devices d
      join sensors s on s.device_id = d.id join channel_groups g on g.sensor_id = s.id
      join channels c on c.channel_group_id = g.id
      where d.mac_address not like 'LD:%' order by d.id, c.id`,
  );
  const byMac = new Map<string, string[]>();
  for (const r of found) byMac.set(r.mac, [...(byMac.get(r.mac) ?? []), r.key]);
  return [...byMac].map(([mac, channelKeys]) => ({ mac, key: demoDeviceKey(mac), channelKeys }));
}

/** Rows and bytes (heap; and with indexes and TOAST) of samples and of their rollups. */
export async function samplesSize(db: Db) {
  return one<{
    rows: number;
    total: number;
    heap: number;
    rollupRows: number;
    rollupTotal: number;
    rollupHeap: number;
  }>(
    db,
    sql`select (select count(*) from samples)::int as rows,
      (select sum(pg_total_relation_size(relid)) from pg_partition_tree('samples'))::float8 as total, (select sum(pg_relation_size(relid)) from pg_partition_tree('samples'))::float8 as heap,
      (select count(*) from sample_rollups)::int as "rollupRows",
      (select sum(pg_total_relation_size(relid)) from pg_partition_tree('sample_rollups'))::float8 as "rollupTotal",
      (select sum(pg_relation_size(relid)) from pg_partition_tree('sample_rollups'))::float8 as "rollupHeap"`,
  );
}
