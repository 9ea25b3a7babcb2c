import { inArray, sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { channels } from "../db/schema/index.ts";
import { REPORT_CHANNELS } from "./reports.ts";
import { seedSamples } from "./samples.ts";

const DAY = 86_400_000;
// PGlite runs in this thread: a day per statement (1,440 rows, ~0.1 s) and a pause between
// statements keep requests flowing while the history is written.
const CHUNK_DAYS = 1;
const PAUSE_MS = 20;
const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS));

/**
 * Fills the report channels' minute history back to `sampleDays` before `now`, a day at a
 * time, newest first. It starts from the oldest sample already stored, so a start that was
 * stopped half way carries on where it stopped; values are a function of channel and time,
 * so the result is the same as one long seed.
 */
export async function fillHistory(
  db: Db,
  opts: {
    now: Date;
    sampleDays: number;
    onProgress?: (daysDone: number, daysTotal: number) => void;
    /** Asked between chunks: a stopping server ends the fill there (the next start resumes). */
    stopped?: () => boolean;
  },
) {
  const found = await db
    .select({ id: channels.id, key: channels.channelKey })
    .from(channels)
    .where(
      inArray(
        channels.channelKey,
        REPORT_CHANNELS.map((c) => c.key),
      ),
    );
  const target = Math.floor(opts.now.getTime() / 60_000) * 60_000 - opts.sampleDays * DAY;
  for (const rc of REPORT_CHANNELS) {
    const id = found.find((f) => f.key === rc.key)?.id;
    if (id === undefined) continue;
    const [row] = await rows<{ earliest: string | Date | null }>(
      db,
      sql`select min(time) as earliest from samples where channel_id = ${id}`,
    );
    let end = row?.earliest
      ? new Date(row.earliest).getTime()
      : Math.floor(opts.now.getTime() / 60_000) * 60_000;
    const total = Math.max(0, Math.ceil((end - target) / DAY));
    while (end > target && !opts.stopped?.()) {
      const days = Math.min(CHUNK_DAYS, (end - target) / DAY);
      await seedSamples(db, id, rc.shape, { end: new Date(end), days, stepMinutes: 1 });
      await pause();
      end -= days * DAY;
      opts.onProgress?.(total - Math.max(0, Math.ceil((end - target) / DAY)), total);
    }
  }
}
