import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
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
