import { ApiError } from "../core/errors.ts";
import type { Db } from "../db/client.ts";
import {
  caughtUpTo,
  primaryLsn,
  replicaReading,
  type PrimaryMark,
  type ReplicaReading,
} from "./replicaLag.ts";

/*
 * Where the public reads run (docs/decisions.md, "Read replica for the public pages"): on the
 * streaming replica of DATABASE_READ_URL while it is up, at most `maxLagSeconds` behind, and
 * holds every write this instance has answered; on the primary otherwise, and always for a
 * request whose client wrote a moment ago (the caller says so). Writes never come here: they
 * use deps.db, the primary. Without a replica every read runs on the primary at no cost.
 */

export type ReadTarget = "replica" | "primary";
/** Why a read the replica could have served went to the primary. */
export type FallbackReason = "away" | "lag" | "failed";
export const FALLBACK_REASONS: readonly FallbackReason[] = ["away", "lag", "failed"];

/** What /metrics shows of the router. */
export interface ReadFigures {
  configured: boolean;
  up: boolean;
  /** Seconds the replica was behind at its last probe; null while it is away or unknown. */
  lagSeconds: number | null;
  reads: Record<ReadTarget, number>;
  fallbacks: Record<FallbackReason, number>;
  /** Reads sent to the primary because this instance or this client wrote a moment ago. */
  afterWrite: number;
}

export interface ReadRouter {
  /**
   * Runs read-only `work` where it may run now; a failure on the replica (other than the
   * route's own answer, an ApiError) is retried once on the primary. `afterWrite`: the
   * client wrote within the last few seconds, so the primary.
   */
  read<T>(work: (db: Db) => Promise<T>, opts?: { afterWrite?: boolean }): Promise<T>;
  /** A write this instance answered: reads go to the primary until the replica holds it. */
  noteWrite(): void;
  /** True when a replica is configured. */
  readonly replica: boolean;
  /** How long a client that wrote reads from the primary (its cookie's lifetime), in seconds. */
  readonly afterWriteSeconds: number;
  figures(): ReadFigures;
  /** Probes the replica once now (the monitor does so every interval once started). */
  probe(): Promise<void>;
  /** Starts the monitor. */
  start(): void;
  close(): Promise<void>;
}

/** Every read on the primary: no replica configured (PGlite, one PostgreSQL). */
export function primaryReads(db: Db): ReadRouter {
  let reads = 0;
  return {
    read: (work) => (reads++, work(db)),
    noteWrite() {},
    replica: false,
    afterWriteSeconds: 0,
    figures: () => ({
      configured: false,
      up: false,
      lagSeconds: null,
      reads: { replica: 0, primary: reads },
      fallbacks: { away: 0, lag: 0, failed: 0 },
      afterWrite: 0,
    }),
    probe: async () => {},
    start() {},
    close: async () => {},
  };
}

export interface ReplicaOptions {
  primary: Db;
  replica: Db;
  maxLagSeconds: number;
  /** How often the monitor probes (1 s). */
  intervalMs?: number;
  /** The monitor's clock in ms (monotonic by default). */
  now?: () => number;
  /** The replica's state (its SQL by default); a test may stand in a lagging one. */
  reading?: () => Promise<ReplicaReading>;
  /** The primary's WAL position (its SQL on `primary` by default). */
  mark?: () => Promise<bigint>;
  /** Closes the replica's pool. */
  closeReplica?: () => Promise<void>;
}

/** After a write, or a replica failure, the next probe runs this soon. */
const QUICK_PROBE_MS = 20;

/** A router between the primary and a streaming replica, with its lag monitor. */
export function replicaRouter(opts: ReplicaOptions): ReadRouter {
  const { primary, replica, maxLagSeconds } = opts;
  const intervalMs = opts.intervalMs ?? 1000;
  const now = opts.now ?? (() => performance.now());
  const reading = opts.reading ?? (() => replicaReading(replica));
  const mark = opts.mark ?? (() => primaryLsn(primary));
  // A probe older than this says nothing any more: the monitor is stuck (or the primary away).
  const staleMs = 2 * intervalMs + 500;
  // Primary marks kept: enough to measure a lag well past the limit.
  const keepMs = Math.max(2 * maxLagSeconds * 1000, 10 * intervalMs);
  const marks: PrimaryMark[] = [];
  const reads = { replica: 0, primary: 0 };
  const fallbacks = { away: 0, lag: 0, failed: 0 };
  let afterWrite = 0;
  let up = false;
  let lagSeconds: number | null = null;
  let probedAt = -Infinity;
  let caught = -Infinity;
  let lastWriteAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let nextAt = Infinity;
  let probing = false;
  let started = false;
  let closed = false;

  const setUp = (next: boolean, detail: Record<string, unknown>) => {
    if (next !== up)
      console.warn(
        JSON.stringify({
          level: next ? "info" : "warn",
          what: next ? "read replica serving" : "read replica away, public reads on the primary",
          ...detail,
        }),
      );
    up = next;
  };

  const probe = async () => {
    const began = now();
    probing = true;
    try {
      marks.push({ at: began, lsn: await mark() });
    } catch {
      // The primary is away: nothing new is known of the replica's distance from it.
      probing = false;
      return;
    }
    while (marks.length > 1 && marks[0]!.at < began - keepMs) marks.shift();
    const state = await reading();
    probing = false;
    if (state.kind === "away") {
      lagSeconds = null;
      return setUp(false, { error: state.error });
    }
    const to = caughtUpTo(marks, state, began);
    caught = to ?? -Infinity;
    lagSeconds = (began - (to ?? marks[0]!.at)) / 1000;
    probedAt = began;
    setUp(true, { lagSeconds });
  };

  const schedule = (ms: number) => {
    if (!started || closed || now() + ms >= nextAt) return;
    clearTimeout(timer);
    nextAt = now() + ms;
    timer = setTimeout(tick, ms);
    timer.unref?.();
  };
  const tick = async () => {
    nextAt = Infinity;
    const began = now();
    await probe().catch(() => {});
    // A write answered during the probe may not be in what it saw: look again soon.
    schedule(lastWriteAt >= began ? QUICK_PROBE_MS : intervalMs);
  };

  /** Where a read goes now, and why when the replica cannot take it. */
  const choose = (clientWrote: boolean): FallbackReason | "afterWrite" | "replica" => {
    if (clientWrote) return "afterWrite";
    if (!up || now() - probedAt > staleMs) return "away";
    // Behind every mark kept (caught unknown): at least as far behind as they reach back.
    if (lagSeconds === null || caught === -Infinity || lagSeconds > maxLagSeconds) return "lag";
    if (caught < lastWriteAt) return "afterWrite";
    return "replica";
  };

  return {
    async read(work, o) {
      const where = choose(o?.afterWrite ?? false);
      if (where !== "replica") {
        if (where === "afterWrite") afterWrite++;
        else fallbacks[where]++;
        reads.primary++;
        return work(primary);
      }
      reads.replica++;
      try {
        return await work(replica);
      } catch (e) {
        if (e instanceof ApiError) throw e;
        // Away until a probe finds it again (soon): the next reads do not each pay the failure.
        setUp(false, { error: e instanceof Error ? e.message : String(e) });
        schedule(QUICK_PROBE_MS);
        fallbacks.failed++;
        reads.primary++;
        return work(primary);
      }
    },
    noteWrite() {
      lastWriteAt = now();
      if (!probing) schedule(QUICK_PROBE_MS);
    },
    replica: true,
    afterWriteSeconds: Math.ceil(maxLagSeconds) + Math.ceil(staleMs / 1000),
    figures: () => ({
      configured: true,
      up,
      lagSeconds: up ? lagSeconds : null,
      reads: { ...reads },
      fallbacks: { ...fallbacks },
      afterWrite,
    }),
    probe,
    start() {
      if (started) return;
      started = true;
      schedule(0);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await opts.closeReplica?.();
    },
  };
}
