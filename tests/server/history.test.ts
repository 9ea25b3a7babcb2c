import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { fillHistory, type HistoryProgress, historyProgressText } from "../../server/seed/history.ts";
import { emptyDatabase, seedDemo } from "../../server/seed/index.ts";
import { REPORT_CHANNELS } from "../../server/seed/reports.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

describe("demo history", () => {
  const ctx = useTestApp();
  const db = () => ctx.database.db;
  const history = () =>
    rows<{ n: number; first: Date; sum: number }>(
      db(),
      sql`select count(*)::int as n, min(s.time) as first, round(sum(s.value)::numeric, 2)::float8 as sum
          from samples s join channels c on c.id = s.channel_id where c.channel_key = ${REPORT_CHANNELS[0]!.key}`,
    ).then((r) => r[0]!);

  it("seeds two days with the records and fills the rest afterwards", async () => {
    await seedDemo(db(), { now: TEST_NOW, sampleDays: 9 });
    expect((await history()).n).toBe(2 * 1440 + 1);
    const progress: HistoryProgress[] = [];
    await fillHistory(db(), { now: TEST_NOW, sampleDays: 9, onProgress: (p) => progress.push(p) });
    const full = await history();
    expect(full.n).toBe(9 * 1440 + 1);
    expect(new Date(full.first).getTime()).toBe(TEST_NOW.getTime() - 9 * 86_400_000);
    expect(progress.at(-1)).toEqual({ channel: 3, channels: 3, day: 7, days: 7, done: 21, total: 21 });
  });

  it("counts its progress once across every channel, says what it counts and checkpoints at the end", async () => {
    await seedDemo(db(), { now: TEST_NOW, sampleDays: 9 });
    const progress: HistoryProgress[] = [];
    let checkpoints = 0;
    await fillHistory(db(), {
      now: TEST_NOW,
      sampleDays: 9,
      onProgress: (p) => progress.push(p),
      checkpoint: async () => checkpoints++,
    });
    const done = progress.map((p) => p.done);
    expect(checkpoints).toBe(1);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(new Set(done).size).toBe(done.length);
    expect(historyProgressText(progress[8]!)).toBe(
      "Demo report history: sensor channel 2 of 3, day 2 of 7 (42% in all)",
    );
  });

  it("carries on where a stopped fill ended and writes the same numbers as one long fill", async () => {
    await seedDemo(db(), { now: TEST_NOW, sampleDays: 9 });
    await fillHistory(db(), { now: TEST_NOW, sampleDays: 9 });
    const once = await history();
    await emptyDatabase(db());
    await seedDemo(db(), { now: TEST_NOW, sampleDays: 9 });
    await fillHistory(db(), { now: TEST_NOW, sampleDays: 4 });
    await fillHistory(db(), { now: TEST_NOW, sampleDays: 9 });
    await fillHistory(db(), { now: TEST_NOW, sampleDays: 9 });
    expect(await history()).toEqual(once);
  });
});
