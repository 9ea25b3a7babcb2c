import { ApiError } from "./errors.ts";

/** What one call waits under: whether its client went away (then its work never starts). */
export interface TurnOptions {
  gone?: () => boolean;
}

export const ABANDONED = "The request was given up by its client before its turn.";

/**
 * One at a time per key, in arrival order, waiting in this process's memory: used for one
 * device's pushes, which the database serializes on the device's row anyway. Waiting here
 * instead of on the row lock keeps the waiting pushes off the database pool, so a device
 * that sends hundreds at once cannot starve every other request of a connection.
 *
 * Work whose client went away while it waited is dropped unstarted (nobody reads its answer, and
 * its retry is on its way), and work that waited longer than `maxWaitMs` is refused with
 * `staleMessage` instead of run: behind a push stuck on the database the queue drains at once
 * rather than one timeout after another.
 */
export function turnsByKey(limits: {
  maxWaiting: number;
  busyMessage: string;
  maxWaitMs: number;
  staleMessage: string;
}) {
  const queues = new Map<number | string, { tail: Promise<unknown>; count: number }>();
  return async function take<T>(
    key: number | string,
    work: () => Promise<T>,
    opts: TurnOptions = {},
  ): Promise<T> {
    const queue = queues.get(key) ?? { tail: Promise.resolve(), count: 0 };
    // The one running plus maxWaiting behind it; beyond that a 429 at once.
    if (queue.count > limits.maxWaiting) throw new ApiError(429, limits.busyMessage);
    queue.count++;
    queues.set(key, queue);
    const queuedAt = Date.now();
    const turn = queue.tail.then(() => {
      if (opts.gone?.()) throw new ApiError(400, ABANDONED);
      if (Date.now() - queuedAt > limits.maxWaitMs) throw new ApiError(503, limits.staleMessage);
      return work();
    });
    queue.tail = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      if (--queue.count === 0) queues.delete(key);
    }
  };
}

/**
 * Keeps one key's callers in the order they arrived across the steps they take before their
 * turn (a push's device lookup: two lookup batches may answer out of order). Each caller waits
 * for `before`, takes its turn, then calls `pass`; one that fails first passes at once, so it
 * holds the next one up only for its own step. Keys are forgotten once their last caller passed.
 */
export function arrivalsByKey() {
  const tails = new Map<string, Promise<void>>();
  return function arrive(key: string): { before: Promise<void>; pass: () => void } {
    const before = tails.get(key) ?? Promise.resolve();
    let pass = () => {};
    const passed = new Promise<void>((resolve) => (pass = resolve));
    // The next caller goes after this one and everyone before it, whatever order they pass in.
    const tail = Promise.all([before, passed]).then(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return { before, pass };
  };
}
