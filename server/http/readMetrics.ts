import { Counter, Gauge, Registry } from "prom-client";
import { FALLBACK_REASONS, type ReadRouter } from "../data/readRouter.ts";

/*
 * The read replica on /metrics (docs/operations.md): where the public reads ran, why some
 * went to the primary, and the replica's lag. Empty without DATABASE_READ_URL.
 */

/** One app's read router as Prometheus series, read when scraped. */
export function readRegistry(reads: ReadRouter): Registry {
  const own = new Registry();
  if (!reads.replica) return own;
  // Counters move by what the router counted since the last scrape.
  const seen = { replica: 0, primary: 0, away: 0, lag: 0, failed: 0, afterWrite: 0 };
  const bump = (
    counter: Counter<string>,
    labels: Record<string, string>,
    key: keyof typeof seen,
    now: number,
  ) => {
    counter.inc(labels, now - seen[key]);
    seen[key] = now;
  };
  const routed = new Counter({
    name: "db_public_reads_total",
    help: "Public reads by the database that ran them: replica or primary (fallbacks and reads after a write included).",
    labelNames: ["target"] as const,
    registers: [own],
    collect() {
      const f = reads.figures();
      bump(routed, { target: "replica" }, "replica", f.reads.replica);
      bump(routed, { target: "primary" }, "primary", f.reads.primary);
    },
  });
  const fallbacks = new Counter({
    name: "db_replica_fallbacks_total",
    help: "Public reads sent to the primary because the replica could not serve: away (down or unreachable), lag (behind more than DATABASE_READ_MAX_LAG_SECONDS), failed (failed mid-request, retried on the primary).",
    labelNames: ["reason"] as const,
    registers: [own],
    collect() {
      const f = reads.figures();
      for (const reason of FALLBACK_REASONS) bump(fallbacks, { reason }, reason, f.fallbacks[reason]);
    },
  });
  const afterWrite = new Counter({
    name: "db_reads_after_write_total",
    help: "Public reads sent to the primary because this instance or this client wrote a moment ago.",
    registers: [own],
    collect() {
      bump(afterWrite, {}, "afterWrite", reads.figures().afterWrite);
    },
  });
  const up = new Gauge({
    name: "db_replica_up",
    help: "1 while the read replica answers its monitor, else 0.",
    registers: [own],
    collect() {
      up.set(reads.figures().up ? 1 : 0);
    },
  });
  const lag = new Gauge({
    name: "db_replica_lag_seconds",
    help: "How far the read replica was behind the primary at its last probe (by WAL position); NaN while it is away (db_replica_up 0).",
    registers: [own],
    collect() {
      const seconds = reads.figures().lagSeconds;
      lag.set(seconds ?? Number.NaN);
    },
  });
  return own;
}
