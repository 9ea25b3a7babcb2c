// CPU time a process, or every PostgreSQL process of the machine, has used so far: what a batch
// of requests cost the machine, read from /proc (Linux), so a cost is measured in CPU and not
// only in latency, which two busy cores make noisy.
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks a second in /proc's figures (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User and system CPU of one process so far, in milliseconds; 0 when it is gone. */
export function processCpuMs(pid: number): number {
  try {
    // The command name (field 2) may hold spaces; the fields after its ')' are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat: 12th and 13th after the name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU of every process named `postgres` so far (backends, WAL writer, autovacuum), in ms.
 * Backends that ended between two readings are not counted: the portal's pool keeps its own.
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue;
    } catch {
      continue;
    }
    total += processCpuMs(Number(entry));
  }
  return total;
}
