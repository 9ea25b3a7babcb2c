import { describe, expect, it } from "vitest";
import { ApiError } from "../../server/core/errors.ts";
import { turnsByKey } from "../../server/core/turns.ts";

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

describe("turns by key", () => {
  it("runs one key's work one at a time in arrival order, and other keys' beside it", async () => {
    const take = turnsByKey(10, "busy");
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
    const take = turnsByKey(2, "This device is busy.");
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
    const take = turnsByKey(5, "busy");
    const failed = take(3, async () => {
      throw new Error("database said no");
    });
    const next = take(3, async () => "stored");
    await expect(failed).rejects.toThrow("database said no");
    expect(await next).toBe("stored");
  });
});
