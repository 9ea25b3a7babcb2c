/*
 * A microcache for the anonymous public reads (public order, report metadata and chart data):
 * a link shared with a crowd, or a wall of kiosks, costs one database read per key per second
 * instead of one per visitor. Entries live `ttlMs`; a write on this instance empties the cache
 * at once (server/http/answers.ts), so another instance's write shows within `ttlMs`.
 * Concurrent misses of one key share one load; a failed load is not kept.
 */

export interface AnswerCache {
  /**
   * The key's answer younger than `maxAgeMs` (the TTL unless a visitor asks for a fresher
   * one), else `load()`'s, shared by concurrent callers.
   */
  read<T>(key: string, load: () => Promise<T>, maxAgeMs?: number): Promise<T>;
  /** The key's answer younger than `maxAgeMs` (the TTL unless a visitor asks for a fresher one), else undefined. */
  peek<T>(key: string, maxAgeMs?: number): Promise<T> | undefined;
  /**
   * Keeps an answer made elsewhere (after its own checks) for the TTL, less up to `spread`
   * (0..1) of it at random: answers made in one burst then expire spread out, not in one. With
   * `since` (the `generation` read before the answer was made), an answer made across a
   * clear() is not kept: it may have read what the write changed.
   */
  put<T>(key: string, value: T, spread?: number, since?: number): void;
  /** Forgets every answer (a write may have changed any of them). */
  clear(): void;
  /** How many times the cache was cleared: an answer made while it changed is stale. */
  readonly generation: number;
  readonly size: number;
  /** How long an answer is kept (0: the cache keeps nothing). */
  readonly ttlMs: number;
}

interface Entry {
  at: number;
  value: Promise<unknown>;
}

/** A cache of at most `maxEntries` answers, each kept `ttlMs` (0: no caching at all). */
export function answerCache(options: {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
  random?: () => number;
}): AnswerCache {
  const { ttlMs, maxEntries } = options;
  const now = options.now ?? (() => performance.now());
  const random = options.random ?? Math.random;
  const entries = new Map<string, Entry>();

  /** Entries are in the order they were made: the expired ones go from the front. */
  const sweep = (t: number) => {
    for (const [key, entry] of entries) {
      if (t - entry.at < ttlMs) return;
      entries.delete(key);
    }
  };
  const read = <T>(key: string, load: () => Promise<T>, maxAgeMs = ttlMs): Promise<T> => {
    if (ttlMs <= 0) return load();
    const t = now();
    const hit = entries.get(key);
    if (hit && t - hit.at < Math.min(maxAgeMs, ttlMs)) return hit.value as Promise<T>;
    if (hit) entries.delete(key);
    sweep(t);
    const value = load();
    const entry = { at: t, value };
    entries.set(key, entry);
    // Oldest first: a Map keeps insertion order.
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    // A load in flight during clear() is no longer in the map: nobody new gets what it read.
    value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    return value;
  };

  const peek = <T>(key: string, maxAgeMs = ttlMs): Promise<T> | undefined => {
    const hit = entries.get(key);
    return hit && now() - hit.at < Math.min(maxAgeMs, ttlMs) ? (hit.value as Promise<T>) : undefined;
  };

  let generation = 0;
  const put = <T>(key: string, value: T, spread = 0, since?: number) => {
    if (ttlMs <= 0 || (since !== undefined && since !== generation)) return;
    const t = now();
    entries.delete(key);
    sweep(t);
    // Made older than it is: it expires sooner (the sweep finds it when it reads past it).
    entries.set(key, {
      at: t - ttlMs * Math.min(1, Math.max(0, spread)) * random(),
      value: Promise.resolve(value),
    });
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  };

  return {
    read,
    peek,
    put,
    clear() {
      entries.clear();
      generation++;
    },
    get generation() {
      return generation;
    },
    get size() {
      return entries.size;
    },
    ttlMs,
  };
}
