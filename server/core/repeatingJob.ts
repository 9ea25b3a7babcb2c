const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * Runs `task` at once and then every `intervalMs`; returns the function that stops it. The
 * task is passed in because core imports nothing else of the server. A failure is logged
 * under `what` and the task runs again at the next interval, so each task must be safe to
 * repeat and to run on several instances at once (idempotent statements, or rows claimed
 * with FOR UPDATE SKIP LOCKED).
 */
export function startRepeatingJob(
  what: string,
  task: (now: Date) => Promise<unknown>,
  opts: { intervalMs: number; now?: () => Date },
): () => void {
  let stopped = false;
  const run = async () => {
    try {
      await task((opts.now ?? (() => new Date()))());
    } catch (e) {
      if (!stopped) console.warn(JSON.stringify({ level: "warn", what, error: String(e) }));
    }
  };
  void run();
  const timer = setInterval(() => void run(), opts.intervalMs);
  // The timer alone must not keep a stopping process alive.
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/**
 * Creates the samples' months ahead (server/data/partitions.ts) at start and daily: months
 * are created three ahead, so one missed day loses nothing.
 */
export const startPartitionJob = (
  ensure: (now: Date) => Promise<unknown>,
  opts: { intervalMs?: number; now?: () => Date } = {},
) => startRepeatingJob("sample partitions", ensure, { intervalMs: DAY_MS, ...opts });

/** Audit retention (server/flows/auditRetention.ts) at start and daily. */
export const startAuditRetention = (
  trim: (now: Date) => Promise<unknown>,
  opts: { intervalMs?: number; now?: () => Date } = {},
) => startRepeatingJob("audit retention", trim, { intervalMs: DAY_MS, ...opts });

/**
 * The audit sealer (server/data/auditSeal.ts) every `intervalMs` (AUDIT_SEAL_MS, 200 by default):
 * rows written with their changes are chained within that long; readers seal before they read.
 */
export const startAuditSealer = (seal: (now: Date) => Promise<unknown>, opts: { intervalMs: number }) =>
  startRepeatingJob("audit sealer", seal, opts);

/**
 * Data retention (server/flows/dataRetention.ts) at start and every `intervalMs` (daily by
 * default, DATA_RETENTION_INTERVAL_MS): months of readings no plan may see any more are dropped.
 */
export const startDataRetention = (
  drop: (now: Date) => Promise<unknown>,
  opts: { intervalMs?: number; now?: () => Date } = {},
) => startRepeatingJob("data retention", drop, { intervalMs: DAY_MS, ...opts });

/** Outbox housekeeping (server/data/outbox.ts purgeMail) at start and hourly. */
export const startMailHousekeeping = (
  purge: (now: Date) => Promise<unknown>,
  opts: { intervalMs?: number; now?: () => Date } = {},
) => startRepeatingJob("mail housekeeping", purge, { intervalMs: HOUR_MS, ...opts });

/**
 * The alert scheduler of an instance (server/flows/alertScheduler.ts and alertDelivery.ts): a
 * tick every `intervalMs`, and `kick()` for a tick now when a push or an acknowledgement moved
 * an alarm (a kick during a tick runs one more after it). Ticks never overlap on an instance;
 * instances share the work through rows claimed with FOR UPDATE SKIP LOCKED.
 */
export function startAlertWork(
  task: (now: Date) => Promise<unknown>,
  opts: { intervalMs: number; now?: () => Date },
): { kick(): void; stop(): void } {
  const state = { running: false, again: false, stopped: false };
  const tick = async () => {
    if (state.stopped) return;
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = true;
    try {
      do {
        state.again = false;
        try {
          await task((opts.now ?? (() => new Date()))());
        } catch (e) {
          if (!state.stopped)
            console.warn(JSON.stringify({ level: "warn", what: "alerts", error: String(e) }));
        }
      } while (state.again && !state.stopped);
    } finally {
      state.running = false;
    }
  };
  const timer = setInterval(() => void tick(), opts.intervalMs);
  timer.unref();
  return {
    kick: () => void tick(),
    stop: () => {
      state.stopped = true;
      clearInterval(timer);
    },
  };
}
