import { describe, expect, it } from "vitest";
import { groupCommit, type Outcome } from "../../server/core/groupCommit.ts";

/* The group commit itself (server/core/groupCommit.ts), without a database. */

describe("group commit", () => {
  it("hands items arriving together to one run and answers each with its own outcome", async () => {
    const runs: number[][] = [];
    const batches = groupCommit<number, number>(
      { maxBatch: 10, lingerMs: 20, maxRunning: 1 },
      async (items) => {
        runs.push(items);
        return items.map((i): Outcome<number> =>
          i === 3 ? { ok: false, error: new Error("three") } : { ok: true, value: i * 2 },
        );
      },
    );
    const answers = await Promise.allSettled([1, 2, 3, 4].map((i) => batches.submit(i)));
    expect(runs).toEqual([[1, 2, 3, 4]]);
    expect(answers.map((a) => (a.status === "fulfilled" ? a.value : (a.reason as Error).message))).toEqual([
      2,
      4,
      "three",
      8,
    ]);
  });

  it("runs each item of a failed batch alone, so only the one that breaks it fails", async () => {
    const runs: number[][] = [];
    const batches = groupCommit<number, number>(
      { maxBatch: 10, lingerMs: 20, maxRunning: 1 },
      async (items) => {
        runs.push(items);
        if (items.includes(2)) throw new Error("the batch broke");
        return items.map((i) => ({ ok: true, value: i }));
      },
    );
    const answers = await Promise.allSettled([1, 2, 3].map((i) => batches.submit(i)));
    expect(runs).toEqual([[1, 2, 3], [1], [2], [3]]);
    expect(answers.map((a) => a.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("gathers what arrives while a batch runs into the next one, up to the batch size", async () => {
    const runs: number[][] = [];
    const batches = groupCommit<number, number>(
      { maxBatch: 3, lingerMs: 0, maxRunning: 1 },
      async (items) => {
        runs.push(items);
        await new Promise((r) => setTimeout(r, 30));
        return items.map((i) => ({ ok: true, value: i }));
      },
    );
    await Promise.all([1, 2, 3, 4, 5, 6].map((i) => batches.submit(i)));
    expect(runs).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it("refuses an item as its batch forms when asked to, without running it", async () => {
    const runs: number[][] = [];
    const batches = groupCommit<number, number>(
      { maxBatch: 10, lingerMs: 10, maxRunning: 1 },
      async (items) => {
        runs.push(items);
        return items.map((i) => ({ ok: true, value: i }));
      },
      (i) => (i === 2 ? new Error("gone") : null),
    );
    const answers = await Promise.allSettled([1, 2].map((i) => batches.submit(i)));
    expect(runs).toEqual([[1]]);
    expect(answers.map((a) => a.status)).toEqual(["fulfilled", "rejected"]);
  });

  it("turns the event loop between two batches, so what arrived meanwhile is read before the next one starts", async () => {
    // A run that answers without a turn of the event loop, as PGlite's statements do.
    const events: string[] = [];
    const batches = groupCommit<number, number>(
      { maxBatch: 1, lingerMs: 0, maxRunning: 1 },
      async (items) => {
        events.push(`batch ${items.join()}`);
        await Promise.resolve();
        return items.map((i) => ({ ok: true, value: i }));
      },
    );
    const answers = [1, 2, 3].map((i) => batches.submit(i));
    setImmediate(() => events.push("turn"));
    await Promise.all(answers);
    expect(events).toEqual(["batch 1", "turn", "batch 2", "batch 3"]);
  });
});
