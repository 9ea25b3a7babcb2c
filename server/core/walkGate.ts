// Whole-window reads for anyone with a link (a report's compliance figures, its PDF): each walks
// every raw reading of the window, seconds of work for a year, and PGlite runs in this
// process. The attack review of 2026-11-29 stalled a portal for a minute with ten of them at
// once. So this process runs at most `running` walks at a time, lets `waiting` more queue, and
// refuses the rest with 503; one client (an address, an IPv6 /64) gets two at a time and a
// small bucket of them. Per process, as the push limits are: N instances give N times as much.
import { ApiError } from "./errors.ts";
import { keyLimiter, type KeyLimits } from "./keyLimiter.ts";

export const WALKS_BUSY = "The server is busy making other reports. Try again in a minute.";
export const WALKS_TOO_MANY = "Too many report downloads from your address. Try again in a minute.";

/** An ApiError that says when to come back (the error handler sends it as Retry-After). */
export class RetryLater extends ApiError {
  readonly retryAfterSeconds: number;
  constructor(status: 429 | 503, message: string, retryAfterSeconds: number) {
    super(status, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface WalkLimits {
  running: number;
  waiting: number;
  /** Each client's own: walks at once, and a bucket of them (burst, then perSecond); null for none. */
  client: Pick<KeyLimits, "inFlight" | "burst" | "perSecond" | "maxKeys"> | null;
}

/**
 * Two walks at once (the two cores), eight in line; a client two at a time, `perClient` in a
 * row and then one each 10 s (REPORT_WALKS_PER_CLIENT; 0 for no per-client limit).
 */
export const walkLimits = (perClient: number): WalkLimits => ({
  running: 2,
  waiting: 8,
  client: perClient > 0 ? { inFlight: 2, burst: perClient, perSecond: 1 / 10, maxKeys: 100_000 } : null,
});

const FREE = { ok: true, done: () => {} } as const;

export function walkGate(limits: WalkLimits) {
  const clients = limits.client && keyLimiter({ ...limits.client, burstBytes: 1, bytesPerSecond: 1 });
  let running = 0;
  const line: (() => void)[] = [];
  const release = () => {
    const next = line.shift();
    if (next) next();
    else running--;
  };
  return {
    /** Runs `work` in its turn, or throws RetryLater (429 for the client, 503 for the process). */
    async run<T>(client: string, work: () => Promise<T>, nowMs = Date.now()): Promise<T> {
      const taken = clients ? clients.take(client, 0, nowMs) : FREE;
      if (!taken.ok) throw new RetryLater(429, WALKS_TOO_MANY, Math.max(taken.retryAfterSeconds, 5));
      try {
        if (running < limits.running) running++;
        else if (line.length < limits.waiting) await new Promise<void>((go) => line.push(go));
        else throw new RetryLater(503, WALKS_BUSY, 30);
        try {
          return await work();
        } finally {
          release();
        }
      } finally {
        taken.done();
      }
    },
    /** Walks running and waiting (tests, metrics). */
    load: () => ({ running, waiting: line.length }),
  };
}

export type WalkGate = ReturnType<typeof walkGate>;
