/*
 * Per-key limits held in this process's memory, for a hot path where a database write per
 * request would cost what the limit protects (device pushes): requests in flight at once, and
 * two token buckets, one of requests and one of bytes. Several instances each give a key its
 * own allowance (docs/decisions.md, "Pushes per device key").
 */

export interface KeyLimits {
  /** Requests of one key being served at once. */
  inFlight: number;
  /** Requests a key may make at once after a pause, and per second after that. */
  burst: number;
  perSecond: number;
  /** Bytes likewise. */
  burstBytes: number;
  bytesPerSecond: number;
  /** Keys remembered at most; idle ones are forgotten first (an unknown key's flood cannot grow memory). */
  maxKeys: number;
}

interface KeyState {
  inFlight: number;
  tokens: number;
  bytes: number;
  at: number;
}

export type Taken = { ok: true; done: () => void } | { ok: false; retryAfterSeconds: number };

/** A limiter; `take` before the work, and `done` after it, whatever its outcome. */
export function keyLimiter(limits: KeyLimits) {
  const keys = new Map<string, KeyState>();
  const refill = (s: KeyState, nowMs: number) => {
    const seconds = Math.max(0, nowMs - s.at) / 1000;
    s.tokens = Math.min(limits.burst, s.tokens + seconds * limits.perSecond);
    s.bytes = Math.min(limits.burstBytes, s.bytes + seconds * limits.bytesPerSecond);
    s.at = nowMs;
  };
  const idle = (s: KeyState) => s.inFlight === 0 && s.tokens >= limits.burst && s.bytes >= limits.burstBytes;
  const forgetIdle = (nowMs: number) => {
    for (const [key, s] of keys) {
      refill(s, nowMs);
      if (idle(s)) keys.delete(key);
    }
  };
  return {
    take(key: string, bytes: number, nowMs: number): Taken {
      if (!keys.has(key) && keys.size >= limits.maxKeys) forgetIdle(nowMs);
      if (!keys.has(key) && keys.size >= limits.maxKeys) return { ok: false, retryAfterSeconds: 1 };
      const s = keys.get(key) ?? { inFlight: 0, tokens: limits.burst, bytes: limits.burstBytes, at: nowMs };
      keys.set(key, s);
      refill(s, nowMs);
      const cost = Math.min(bytes, limits.burstBytes);
      if (s.inFlight >= limits.inFlight) return { ok: false, retryAfterSeconds: 1 };
      if (s.tokens < 1 || s.bytes < cost) {
        const wait = Math.max((1 - s.tokens) / limits.perSecond, (cost - s.bytes) / limits.bytesPerSecond);
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
      }
      s.tokens -= 1;
      s.bytes -= cost;
      s.inFlight += 1;
      let once = false;
      return {
        ok: true,
        done: () => {
          if (once) return;
          once = true;
          s.inFlight -= 1;
        },
      };
    },
    /**
     * Takes `tokens` more from a key after its work showed its cost (a push that made the
     * database recompute much): the bucket may go below zero, and the key waits until it
     * refills. An unknown key is not charged.
     */
    charge(key: string, tokens: number, nowMs: number) {
      const s = keys.get(key);
      if (!s || tokens <= 0) return;
      refill(s, nowMs);
      s.tokens -= tokens;
    },
    /** How many keys are remembered (tests). */
    size: () => keys.size,
  };
}

export type KeyLimiter = ReturnType<typeof keyLimiter>;

/**
 * The push endpoint's gate: a key is limited by its own buckets only once a push with it has
 * been accepted (`confirm`), so a flood of invented keys can never push a real device's entry
 * out or fill the limiter against it. Until then its pushes count against their client address
 * (an IPv6 /64, as the rate limits key it): at most `unverifiedPerClient` at once, so one
 * client holding half-sent pushes with made-up keys holds only its own places.
 */
export function pushGate(opts: { limits: KeyLimits; unverifiedPerClient: number; maxKnown: number }) {
  const limiter = keyLimiter(opts.limits);
  /** Keys (their hashes) with an accepted push, oldest first; refreshed on each acceptance. */
  const known = new Map<string, true>();
  const unverified = new Map<string, number>();
  const fromClient = (client: string): Taken => {
    const n = unverified.get(client) ?? 0;
    if (n >= opts.unverifiedPerClient) return { ok: false, retryAfterSeconds: 1 };
    unverified.set(client, n + 1);
    let once = false;
    const done = () => {
      if (once) return;
      once = true;
      const left = (unverified.get(client) ?? 1) - 1;
      if (left > 0) unverified.set(client, left);
      else unverified.delete(client);
    };
    return { ok: true, done };
  };
  return {
    /** A place for a push with this key (its hash) from this client, or how long to wait. */
    take(keyHash: string, client: string, bytes: number, nowMs: number): Taken {
      return known.has(keyHash) ? limiter.take(keyHash, bytes, nowMs) : fromClient(client);
    },
    /** The key's push was accepted: from now on it has buckets of its own. */
    confirm(keyHash: string) {
      known.delete(keyHash);
      known.set(keyHash, true);
      if (known.size > opts.maxKnown) known.delete(known.keys().next().value!);
    },
    /** Charges a key with buckets of its own for work beyond one push (keyLimiter's charge). */
    charge(keyHash: string, tokens: number, nowMs: number) {
      limiter.charge(keyHash, tokens, nowMs);
    },
    /** How many keys and clients are remembered (tests). */
    size: () => ({ known: known.size, limited: limiter.size(), clients: unverified.size }),
  };
}

export type PushGate = ReturnType<typeof pushGate>;
