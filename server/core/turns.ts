import { ApiError } from "./errors.ts";

/**
 * One at a time per key, in arrival order, waiting in this process's memory: used for one
 * device's pushes, which the database serializes on the device's row anyway. Waiting here
 * instead of on the row lock keeps the waiting pushes off the database pool, so a device
 * that sends hundreds at once cannot starve every other request of a connection.
 */
export function turnsByKey(maxWaiting: number, busyMessage: string) {
  const queues = new Map<number, { tail: Promise<unknown>; count: number }>();
  return async function take<T>(key: number, work: () => Promise<T>): Promise<T> {
    const queue = queues.get(key) ?? { tail: Promise.resolve(), count: 0 };
    // The one running plus maxWaiting behind it; beyond that a 429 at once.
    if (queue.count > maxWaiting) throw new ApiError(429, busyMessage);
    queue.count++;
    queues.set(key, queue);
    const turn = queue.tail.then(work);
    queue.tail = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      if (--queue.count === 0) queues.delete(key);
    }
  };
}
