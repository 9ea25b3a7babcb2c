import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";

/*
 * How far a streaming replica is behind, measured by WAL position rather than by
 * pg_last_xact_replay_timestamp(): on an idle primary that timestamp ages although nothing is
 * behind. Each probe reads the primary's flushed WAL position first, then the replica's
 * pg_last_wal_replay_lsn(); once the replica has replayed a position the primary had at time t,
 * it holds every commit made before t. Its staleness is then (probe time - t).
 */

/** A WAL position ("16/B374D848") as one number, comparable. */
export function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split("/");
  return (BigInt(`0x${hi ?? "0"}`) << 32n) + BigInt(`0x${lo ?? "0"}`);
}

/** One reading of the primary: where its WAL stood at `at` (ms, the monitor's clock). */
export interface PrimaryMark {
  at: number;
  lsn: bigint;
}

/** What one probe of the replica says. */
export type ReplicaReading =
  /** A standby and the WAL position it has replayed. */
  | { kind: "standby"; replayed: bigint }
  /** Not in recovery: a promoted standby, or a second server standing in; it is as fresh as it gets. */
  | { kind: "writable" }
  /** No answer (stopped, unreachable, refused). */
  | { kind: "away"; error: string };

/**
 * The latest time up to which the replica holds every commit: the newest primary mark it has
 * replayed, `probedAt` for a writable server, or null when no mark kept is replayed yet.
 */
export function caughtUpTo(marks: readonly PrimaryMark[], reading: ReplicaReading, probedAt: number) {
  if (reading.kind === "away") return null;
  if (reading.kind === "writable") return probedAt;
  let best: number | null = null;
  for (const mark of marks)
    if (mark.lsn <= reading.replayed && (best === null || mark.at > best)) best = mark.at;
  return best;
}

/**
 * The primary's WAL position now: flushed, not inserted. A commit is answered only once
 * flushed, so every commit answered before now is at or before it, while WAL still being
 * written by transactions under way (which a replica cannot have yet) is not counted.
 */
export async function primaryLsn(db: Db): Promise<bigint> {
  const [row] = await rows<{ lsn: string }>(db, sql`select pg_current_wal_flush_lsn()::text as lsn`);
  return lsnValue(row!.lsn);
}

/** The replica's state: a standby's replayed WAL position, or that it takes writes itself. */
export async function replicaReading(db: Db): Promise<ReplicaReading> {
  try {
    const [row] = await rows<{ recovery: boolean; lsn: string | null }>(
      db,
      sql`select pg_is_in_recovery() as recovery, pg_last_wal_replay_lsn()::text as lsn`,
    );
    if (!row?.recovery) return { kind: "writable" };
    return { kind: "standby", replayed: lsnValue(row.lsn ?? "0/0") };
  } catch (e) {
    return { kind: "away", error: e instanceof Error ? e.message : String(e) };
  }
}
