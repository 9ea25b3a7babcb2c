// Retention by plan (docs/decisions.md, "Retention by plan"): reads are held to each
// subscription's plan where their window is made (src/domain/plan.ts dataRange,
// src/domain/reportWindow.ts); this daily job removes what no plan may see any more, whole
// monthly partitions of readings and of their rollups, never row by row. Safe on several
// instances at once: each drop takes the partitions' advisory lock and looks again.
import type { Db } from "../db/client.ts";
import { everyPlanLimits } from "../data/planAges.ts";
import {
  dropMonth,
  MONTHLY_TABLES,
  monthPartitions,
  PUSH_MAX_AGE_MS,
  type MonthlyTable,
} from "../data/partitions.ts";
import { firstKeptMonth, retentionCutoff } from "../../src/domain/retention.ts";

export interface RetentionRun {
  /** The instant before which no plan shows anything, or null (a plan without a limit). */
  cutoff: Date | null;
  /** The first month kept: partitions of months before it went (null: nothing may go). */
  keptFrom: Date | null;
  /** The partitions this run dropped (another instance's drops are not among them). */
  dropped: string[];
}

const at = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000));

/** Drops the monthly partitions of readings and rollups wholly older than every plan shows. */
export async function dropAgedMonths(db: Db, now: Date): Promise<RetentionRun> {
  const nowS = now.getTime() / 1000;
  const cutoff = retentionCutoff(await everyPlanLimits(db), nowS);
  const keep = firstKeptMonth(cutoff, nowS, PUSH_MAX_AGE_MS / 1000);
  const dropped: string[] = [];
  if (keep !== null)
    for (const table of Object.keys(MONTHLY_TABLES) as MonthlyTable[])
      for (const part of await monthPartitions(db, table))
        if (part.month.getTime() / 1000 < keep && (await dropMonth(db, table, part.name)))
          dropped.push(part.name);
  return { cutoff: at(cutoff), keptFrom: at(keep), dropped };
}
