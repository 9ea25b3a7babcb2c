/**
 * Group commit: work items arriving within a few milliseconds are handed to `run` together, so
 * one transaction stores many of them (device pushes: server/data/ingestBatch.ts). Each caller
 * gets its own item's outcome, only once `run` has finished for the whole batch (its commit).
 *
 * A batch starts when it holds `maxBatch` items or its oldest has waited `lingerMs`, and only
 * while fewer than `maxRunning` batches run: behind a slow database the queue grows and the
 * next batch takes more at once, which is what lets a slow commit carry more pushes.
 *
 * `run` answers every item of a batch (a refused one with its error), or throws when the batch
 * as a whole failed (a deadlock, a lost connection, a row of one item breaking a statement).
 * Then each of its items is run again alone, and gets what its own run gives: no item is ever
 * answered as done for a batch that did not commit.
 */
export type Outcome<O> = { ok: true; value: O } | { ok: false; error: unknown };

export interface GroupCommitOptions {
  maxBatch: number;
  lingerMs: number;
  maxRunning: number;
}

export interface GroupCommit<I, O> {
  submit(item: I): Promise<O>;
  /** Items waiting for a batch, and batches running: for tests and metrics. */
  readonly waiting: number;
  readonly running: number;
  /** How long the oldest item waiting for a batch has waited (ms), 0 when none waits. */
  readonly oldestWaitMs: number;
}

interface Entry<I, O> {
  item: I;
  at: number;
  resolve(value: O): void;
  reject(error: unknown): void;
}

export function groupCommit<I, O>(
  opts: GroupCommitOptions,
  run: (items: I[]) => Promise<Outcome<O>[]>,
  /** Asked as an item's batch forms: an error refuses it there (its client left, it waited too long). */
  refuse: (item: I, waitedMs: number) => unknown = () => null,
): GroupCommit<I, O> {
  const maxBatch = Math.max(1, opts.maxBatch);
  const queue: Entry<I, O>[] = [];
  let running = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const settle = (entry: Entry<I, O>, outcome: Outcome<O> | undefined) => {
    if (outcome?.ok) entry.resolve(outcome.value);
    else entry.reject(outcome ? outcome.error : new Error("The batch gave no outcome for this item."));
  };

  const runAlone = async (entry: Entry<I, O>) => {
    try {
      settle(entry, (await run([entry.item]))[0]);
    } catch (e) {
      entry.reject(e);
    }
  };

  const start = (entries: Entry<I, O>[]) => {
    running++;
    void (async () => {
      try {
        const outcomes = await run(entries.map((e) => e.item));
        entries.forEach((e, i) => settle(e, outcomes[i]));
      } catch (e) {
        // One item alone cannot be split further: its failure is its own answer.
        if (entries.length === 1) entries[0]!.reject(e);
        else await Promise.all(entries.map(runAlone));
      } finally {
        running--;
        // The next batch after a turn of the event loop: what arrived meanwhile is read first
        // (and joins it). On PGlite a batch's statements answer without such a turn, so
        // back-to-back batches would hold the process: no connection accepted, no request read.
        setImmediate(pump);
      }
    })();
  };

  const pump = () => {
    clearTimeout(timer);
    timer = undefined;
    while (running < opts.maxRunning && queue.length) {
      const waited = performance.now() - queue[0]!.at;
      if (queue.length < maxBatch && waited < opts.lingerMs) {
        timer = setTimeout(pump, opts.lingerMs - waited);
        return;
      }
      const taken = queue.splice(0, maxBatch);
      const now = performance.now();
      const admitted = taken.filter((e) => {
        const error = refuse(e.item, now - e.at);
        if (error) e.reject(error);
        return !error;
      });
      if (admitted.length) start(admitted);
    }
  };

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, at: performance.now(), resolve, reject });
        pump();
      });
    },
    get waiting() {
      return queue.length;
    },
    get running() {
      return running;
    },
    get oldestWaitMs() {
      return queue.length ? performance.now() - queue[0]!.at : 0;
    },
  };
}
