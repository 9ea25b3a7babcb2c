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
    /** How many keys are remembered (tests). */
    size: () => keys.size,
  };
}

export type KeyLimiter = ReturnType<typeof keyLimiter>;
