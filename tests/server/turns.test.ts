import { describe, expect, it } from "vitest";
import { ApiError } from "../../server/core/errors.ts";
import { ABANDONED, arrivalsByKey, turnsByKey } from "../../server/core/turns.ts";

/** A piece of work that records when it starts and ends, and ends when told. */
function step(log: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    finish: () => finish(),
    work: async () => {
      log.push(`${name} starts`);
      await done;
      log.push(`${name} ends`);
      return name;
    },
  };
}

const ticks = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Turns with room for `maxWaiting` behind the running one and a long wait allowed. */
const turns = (maxWaiting: number, busyMessage = "busy", maxWaitMs = 60_000) =>
  turnsByKey({ maxWaiting, busyMessage, maxWaitMs, staleMessage: "waited too long" });

describe("turns by key", () => {
  it("runs one key's work one at a time in arrival order, and other keys' beside it", async () => {
    const take = turns(10);
    const log: string[] = [];
    const [a1, a2, b1] = [step(log, "a1"), step(log, "a2"), step(log, "b1")];
    const results = [take(1, a1.work), take(1, a2.work), take(2, b1.work)];
    await ticks();
    expect(log).toEqual(["a1 starts", "b1 starts"]);
    a1.finish();
    await ticks();
    expect(log).toEqual(["a1 starts", "b1 starts", "a1 ends", "a2 starts"]);
    a2.finish();
    b1.finish();
    expect(await Promise.all(results)).toEqual(["a1", "a2", "b1"]);
  });

  it("refuses with 429 when the running one and maxWaiting are taken, and takes more once they end", async () => {
    const take = turns(2, "This device is busy.");
    const log: string[] = [];
    const steps = [0, 1, 2].map((i) => step(log, `s${i}`));
    const running = steps.map((s) => take(7, s.work));
    const refused = await take(7, async () => "never").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 429,
      errors: [{ field: null, message: "This device is busy." }],
    });
    steps.forEach((s) => s.finish());
    await Promise.all(running);
    expect(await take(7, async () => "again")).toBe("again");
  });

  it("gives the next one its turn after a failure, and passes the failure to its own caller", async () => {
    const take = turns(5);
    const failed = take(3, async () => {
      throw new Error("database said no");
    });
    const next = take(3, async () => "stored");
    await expect(failed).rejects.toThrow("database said no");
    expect(await next).toBe("stored");
  });

  it("drops unstarted the work of a client that went away while it waited, and runs the next", async () => {
    const take = turns(5);
    const log: string[] = [];
    const [first, gone, next] = [step(log, "first"), step(log, "gone"), step(log, "next")];
    let left = false;
    const results = [
      take(4, first.work),
      take(4, gone.work, { gone: () => left }).catch((e: unknown) => e),
      take(4, next.work),
    ];
    left = true;
    first.finish();
    next.finish();
    const [, dropped, ran] = await Promise.all(results);
    expect(dropped).toMatchObject({ status: 400, errors: [{ field: null, message: ABANDONED }] });
    expect(ran).toBe("next");
    expect(log).toEqual(["first starts", "first ends", "next starts", "next ends"]);
  });

  it("refuses with 503 the work that waited longer than maxWaitMs, without running it", async () => {
    const take = turns(5, "busy", 20);
    const log: string[] = [];
    const stuck = step(log, "stuck");
    const running = take(9, stuck.work);
    const waiting = take(9, async () => "late").catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 40));
    stuck.finish();
    await running;
    expect(await waiting).toMatchObject({
      status: 503,
      errors: [{ field: null, message: "waited too long" }],
    });
    // The queue is free again: new work runs at once.
    expect(await take(9, async () => "fresh")).toBe("fresh");
  });
});

describe("arrivals by key", () => {
  /** Callers that each take a step of their own length, then join one key's turns. */
  const arriveAll = async (
    delays: number[],
    key: (i: number) => string = () => "a",
    fail: (i: number) => boolean = () => false,
  ) => {
    const arrive = arrivalsByKey();
    const take = turns(10);
    const order: number[] = [];
    await Promise.allSettled(
      delays.map(async (ms, i) => {
        const place = arrive(key(i));
        try {
          await new Promise((r) => setTimeout(r, ms));
          if (fail(i)) throw new Error("refused");
          await place.before;
          const turn = take(1, async () => void order.push(i));
          place.pass();
          await turn;
        } finally {
          place.pass();
        }
      }),
    );
    return order;
  };

  it("gives a key's callers their turns in the order they arrived when their steps end in another", async () => {
    expect(await arriveAll([40, 0, 20, 5])).toEqual([0, 1, 2, 3]);
  });

  it("lets the next caller on at once when one before it fails its step", async () => {
    expect(await arriveAll([30, 0, 10], undefined, (i) => i === 0)).toEqual([1, 2]);
  });

  it("does not hold one key's callers behind another key's", async () => {
    expect(await arriveAll([40, 0], (i) => `k${i}`)).toEqual([1, 0]);
  });
});
