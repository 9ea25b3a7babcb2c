import { sql } from "drizzle-orm";
import { statementWithCommit, type Db } from "../db/client.ts";
import { quoted } from "../db/literal.ts";
import { secondsOf } from "../core/time.ts";

/*
 * Fan-out between server instances through PostgreSQL LISTEN/NOTIFY: a write that changes
 * what a live page shows announces the device on one channel; every instance listens and
 * tells its own sockets. PGlite runs the same SQL in one process.
 */

/** The one channel (lower case: LISTEN folds unquoted names). */
export const LIVE_CHANNEL = "device_live";
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;
const PING_MS = 30_000;

/**
 * Announces that a device changed. Called inside a transaction, PostgreSQL delivers it when
 * the transaction commits and never when it rolls back, so a listener that reads the device
 * on hearing it sees the committed rows.
 */
export async function announceDevice(db: Db, deviceId: number, at: Date) {
  const payload = JSON.stringify({ deviceId, time: secondsOf(at) });
  await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`);
}

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; a chunk stays under this. */
export const PAYLOAD_BYTES = 7900;
/** A device is announced at most once a second per process; a later change waits out the second. */
export const ANNOUNCE_EVERY_MS = 1000;

/**
 * The payloads announcing these devices: ids only, `{"deviceIds":[...]}`, as few as fit under
 * PAYLOAD_BYTES (a listener reads what changed from the database, so the ids are all it needs).
 */
export function devicePayloads(deviceIds: readonly number[]): string[] {
  const out: string[] = [];
  let chunk: number[] = [];
  let bytes = 0;
  const head = '{"deviceIds":[]}'.length;
  for (const id of deviceIds) {
    const len = String(id).length + 1;
    if (chunk.length && head + bytes + len > PAYLOAD_BYTES) {
      out.push(JSON.stringify({ deviceIds: chunk }));
      chunk = [];
      bytes = 0;
    }
    chunk.push(id);
    bytes += len;
  }
  if (chunk.length) out.push(JSON.stringify({ deviceIds: chunk }));
  return out;
}

interface Throttle {
  last: Map<number, number>;
  pending: Set<number>;
  timer: ReturnType<typeof setTimeout> | undefined;
}
const throttles = new WeakMap<Db, Throttle>();

/**
 * Announces a batch of stored pushes' devices in one statement (one notification per 1,000 or
 * so ids), each device at most once a second: one announced less than a second ago is
 * announced again once its second is over, outside any transaction, on `db` (its rows are
 * committed by then). Called inside the batch's transaction, delivered at its commit.
 */
export async function announceDevices(tx: Db, deviceIds: readonly number[], db: Db = tx, nowMs = Date.now()) {
  const due = dueNow(db, deviceIds, nowMs);
  if (!due.length) return;
  const payloads = devicePayloads(due);
  // With the COMMIT, in its message (a push batch's transaction: one round trip fewer); at
  // once outside one of our own transactions. The payloads are JSON of ids, as literals.
  await statementWithCommit(
    tx,
    `select pg_notify(${quoted(LIVE_CHANNEL)}, p) from unnest(array[${payloads.map(quoted).join(",")}]::text[]) as p`,
    "a live announcement",
  );
}

/** The ids not announced within the last second; the others wait for a later announcement. */
function dueNow(db: Db, deviceIds: readonly number[], nowMs: number): number[] {
  let t = throttles.get(db);
  if (!t) throttles.set(db, (t = { last: new Map(), pending: new Set(), timer: undefined }));
  const due: number[] = [];
  for (const id of new Set(deviceIds)) {
    const last = t.last.get(id);
    if (last !== undefined && nowMs - last < ANNOUNCE_EVERY_MS) t.pending.add(id);
    else {
      t.last.set(id, nowMs);
      t.pending.delete(id);
      due.push(id);
    }
  }
  if (t.pending.size && !t.timer) {
    const throttle = t;
    throttle.timer = setTimeout(() => {
      throttle.timer = undefined;
      const now = Date.now();
      for (const [id, at] of throttle.last) if (now - at >= ANNOUNCE_EVERY_MS) throttle.last.delete(id);
      const ids = [...throttle.pending];
      throttle.pending.clear();
      // A closed database (shutdown) has no listener left to tell.
      announceDevices(db, ids, db, now).catch(() => {});
    }, ANNOUNCE_EVERY_MS);
    throttle.timer.unref?.();
  }
  // Forget devices quiet for a second, so the map holds about one second's devices.
  if (t.last.size > 4 * (due.length + 1000))
    for (const [id, at] of t.last) if (nowMs - at >= ANNOUNCE_EVERY_MS) t.last.delete(id);
  return due;
}

/**
 * Announces that sessions of a person ended (sign-out, sign out everywhere, a new password):
 * every instance asks that person's sockets at once whether their session still holds,
 * instead of at the next heartbeat. Inside a transaction it is delivered on commit.
 */
export async function announceSessionsEnded(db: Db, userId: number) {
  await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${JSON.stringify({ userId })})`);
}

/** A positive integer field of an announcement, or null (anything else on the channel). */
function announcedId(payload: string, field: "deviceId" | "userId"): number | null {
  try {
    const id = (JSON.parse(payload) as Record<string, unknown>)[field];
    return Number.isInteger(id) && (id as number) > 0 ? (id as number) : null;
  } catch {
    return null;
  }
}

/** The device ids of a batch's announcement (positive integers only), or none. */
export function announcedDevices(payload: string): number[] {
  try {
    const ids = (JSON.parse(payload) as Record<string, unknown>)["deviceIds"];
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id) && id > 0) : [];
  } catch {
    return [];
  }
}

/** The device id of an announcement, or null for anything else on the channel. */
export const announcedDevice = (payload: string) => announcedId(payload, "deviceId");
/** The person whose sessions ended, or null for anything else on the channel. */
export const announcedUser = (payload: string) => announcedId(payload, "userId");

export interface DeviceListener {
  close(): Promise<void>;
}
export interface ListenHandlers {
  /** A device was announced. */
  onDevice(deviceId: number): void;
  /** Sessions of this person ended. */
  onUser(userId: number): void;
  /** Listening resumed after the connection dropped: announcements may have been missed. */
  onResume(): void;
}

type PgliteClient = { listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>> };
type PgPool = { options: Record<string, unknown> };

/** LISTENs on the live channel: on PGlite in process, on PostgreSQL over a connection of its own. */
export async function listenDevices(db: Db, handlers: ListenHandlers): Promise<DeviceListener> {
  const client = (db as unknown as { $client: PgliteClient | PgPool }).$client;
  const hear = (payload: string | undefined) => {
    const id = announcedDevice(payload ?? "");
    if (id !== null) handlers.onDevice(id);
    for (const each of announcedDevices(payload ?? "")) handlers.onDevice(each);
    const userId = announcedUser(payload ?? "");
    if (userId !== null) handlers.onUser(userId);
  };
  if ("listen" in client) {
    const unlisten = await client.listen(LIVE_CHANNEL, hear);
    return { close: () => unlisten() };
  }
  return listenPostgres(client.options, hear, handlers.onResume);
}

/**
 * A dedicated PostgreSQL connection that LISTENs (a pooled one would lose the LISTEN when
 * released). A dropped connection is opened again with growing pauses; a ping finds one
 * that died quietly.
 */
async function listenPostgres(
  options: Record<string, unknown>,
  hear: (payload: string | undefined) => void,
  onResume: () => void,
): Promise<DeviceListener> {
  const { Client } = (await import("pg")).default;
  type Connection = InstanceType<typeof Client>;
  let current: Connection | null = null;
  let closed = false;
  let retryMs = RETRY_FIRST_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const drop = (c: Connection) => {
    if (c !== current) return;
    current = null;
    c.end().catch(() => {});
    if (!closed) schedule();
  };
  const open = async () => {
    const c = new Client({ ...options, keepAlive: true });
    current = c;
    c.on("notification", (n) => n.channel === LIVE_CHANNEL && hear(n.payload));
    c.on("error", () => drop(c));
    c.on("end", () => drop(c));
    await c.connect();
    await c.query(`LISTEN ${LIVE_CHANNEL}`);
    retryMs = RETRY_FIRST_MS;
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        await open();
        onResume();
      } catch {
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        if (current) drop(current);
        else schedule();
      }
    }, retryMs);
  };
  const ping = setInterval(() => {
    const c = current;
    c?.query("select 1").catch(() => drop(c));
  }, PING_MS);
  ping.unref();
  const close = async () => {
    closed = true;
    clearTimeout(timer);
    clearInterval(ping);
    const c = current;
    current = null;
    await c?.end().catch(() => {});
  };

  try {
    await open();
  } catch (e) {
    await close();
    throw e;
  }
  return { close };
}
