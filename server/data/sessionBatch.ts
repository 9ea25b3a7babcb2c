import { and, gt, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { sessions } from "../db/schema/index.ts";
import { isRoleId } from "../../src/domain/roles.ts";
import { sessionsWithRoles, type Auth } from "./auth.ts";
import { liveSessionParams, touchSession } from "./sessions.ts";

/** Sessions read per query. */
const HASHES_PER_READ = 500;

/**
 * authOfSession for many tokens at once, by token (null for one that signs no one in): the
 * live sockets' heartbeat asks thousands of sessions every 20 s, and one query per hundreds of
 * them costs the pool far less than one each.
 */
export async function authOfSessions(db: Db, tokens: readonly string[], now: Date) {
  const found = new Map<string, Auth | null>(tokens.map((t) => [t, null]));
  const byHash = new Map(tokens.map((t) => [liveSessionParams(t, now).idHash, t]));
  const { oldest } = liveSessionParams("", now);
  const hashes = [...byHash.keys()];
  for (let i = 0; i < hashes.length; i += HASHES_PER_READ) {
    const rows = await sessionsWithRoles(db).where(
      and(
        inArray(sessions.idHash, hashes.slice(i, i + HASHES_PER_READ)),
        gt(sessions.expiresAt, now),
        gt(sessions.createdAt, oldest),
      ),
    );
    for (const row of rows) {
      if (!isRoleId(row.roleId)) continue;
      await touchSession(db, row.session, now);
      found.set(byHash.get(row.session.idHash)!, {
        user: row.user,
        subscription: row.subscription,
        roleId: row.roleId,
      });
    }
  }
  return found;
}

/**
 * Gathers the session checks asked within one turn of the event loop into one authOfSessions
 * call: each caller still gets its own answer, as authOfSession would give it.
 */
export function sessionBatcher(db: Db, now: () => Date) {
  let waiting: Map<string, ((auth: Auth | null) => void)[]> | null = null;
  let failures: ((e: unknown) => void)[] = [];
  const flush = async () => {
    const batch = waiting!;
    const fail = failures;
    waiting = null;
    failures = [];
    try {
      const found = await authOfSessions(db, [...batch.keys()], now());
      for (const [token, callers] of batch) for (const c of callers) c(found.get(token) ?? null);
    } catch (e) {
      for (const f of fail) f(e);
    }
  };
  return (token: string | null): Promise<Auth | null> => {
    if (!token) return Promise.resolve(null);
    if (!waiting) {
      waiting = new Map();
      setImmediate(() => void flush());
    }
    const callers = waiting.get(token) ?? [];
    waiting.set(token, callers);
    return new Promise((resolve, reject) => {
      callers.push(resolve);
      failures.push(reject);
    });
  };
}
