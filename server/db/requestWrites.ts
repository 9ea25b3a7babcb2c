import { AsyncLocalStorage } from "node:async_hooks";

/*
 * Whether the request being served wrote to the database: what empties the answer cache and,
 * with a replica, sends the writer's next reads to the primary (http/gate.ts,
 * http/readRouting.ts). Told by the statements themselves: every Db of the portal is opened
 * with `writeWatch` as its Drizzle logger, which sees each statement's text before it runs, in
 * the async context of the request that runs it. A statement that writes counts even when its
 * transaction later rolls back (the cache is then emptied for nothing, as any error did
 * before); one that fails to parse here as a write never counts. The rate limits' counters
 * are writes no public read shows: an anonymous no-op (a sign-out without a session, the
 * email check of an unknown address) must not empty the cache for every visitor.
 */

const requests = new AsyncLocalStorage<{ wrote: boolean }>();

/**
 * Tables whose rows no cached answer or public read shows: the limits' counters, the servers'
 * own secrets, and the audit trail (a stranger's failed sign-in writes a row, and must not empty
 * the cache for every visitor either).
 */
const UNSEEN = new Set(["rate_limits", "server_secrets", "audit_log", "audit_heads"]);
const WRITE_START =
  /^\s*(?:insert\s+into|update|delete\s+from|merge\s+into)\s+(?:only\s+)?"?([A-Za-z0-9_]+)/i;
const WRITE_INSIDE =
  /\b(?:insert\s+into|delete\s+from|merge\s+into)\b|\bupdate\s+\S+\s+(?:as\s+\S+\s+|\S+\s+)?set\b/i;

/** True when the statement's text writes a table some answer shows. */
export function writesSeenRows(query: string): boolean {
  const head = WRITE_START.exec(query);
  if (head) return !UNSEEN.has(head[1]!.toLowerCase());
  return /^\s*with\b/i.test(query) && WRITE_INSIDE.test(query);
}

/** Runs a request's work with a fresh flag; the flag says afterwards whether it wrote. */
export function watchingWrites<T>(work: () => T): { result: T; wrote: () => boolean } {
  const flag = { wrote: false };
  const result = requests.run(flag, work);
  return { result, wrote: () => flag.wrote };
}

/** Whether the request in whose context this runs has written so far (false outside one). */
export const requestWrote = () => requests.getStore()?.wrote ?? false;

/** The Drizzle logger every portal Db is opened with (db/client.ts). */
export const writeWatch = {
  logQuery(query: string) {
    const flag = requests.getStore();
    if (flag && !flag.wrote && writesSeenRows(query)) flag.wrote = true;
  },
};
