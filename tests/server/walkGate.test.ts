import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { RetryLater, walkGate, walkLimits, WALKS_BUSY, WALKS_TOO_MANY } from "../../server/core/walkGate.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { testConfig } from "./helpers.ts";
import { useIngestApp } from "./ingestKit.ts";

// Whole-window reads for anyone with a link (the attack review of 2026-11-29): a few at a time
// per process, a few at a time per client, and a clear 503 or 429 with Retry-After beyond that.
describe("whole-window reads", () => {
  const limits = {
    running: 1,
    waiting: 1,
    client: { inFlight: 1, burst: 2, perSecond: 1 / 20, maxKeys: 10 },
  };
  const noClientLimit = { ...limits, client: null };
  const later = () => {
    let go!: () => void;
    const gate = new Promise<void>((r) => (go = r));
    return { go, work: () => gate.then(() => "done") };
  };

  it("runs one walk, queues the next and refuses the one after with 503", async () => {
    const gate = walkGate(noClientLimit);
    const first = later();
    const running = gate.run("a", first.work);
    const queued = gate.run("b", async () => "second");
    expect(gate.load()).toEqual({ running: 1, waiting: 1 });
    const refused = await gate.run("c", async () => "third").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RetryLater);
    expect(refused).toMatchObject({ status: 503, message: WALKS_BUSY });
    first.go();
    expect(await running).toBe("done");
    expect(await queued).toBe("second");
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it("gives a client one walk at a time and a small bucket of them", async () => {
    const gate = walkGate(limits);
    const first = later();
    const running = gate.run("a", first.work, 0);
    await expect(gate.run("a", async () => 1, 0)).rejects.toMatchObject({
      status: 429,
      message: WALKS_TOO_MANY,
    });
    first.go();
    await running;
    expect(await gate.run("a", async () => 2, 0)).toBe(2);
    await expect(gate.run("a", async () => 3, 0)).rejects.toMatchObject({ status: 429 });
    expect(await gate.run("a", async () => 4, 20_000)).toBe(4);
  });

  const { ctx } = useIngestApp();

  it("answers the compliance figures' sixth call in a row from one client 429 with Retry-After", async () => {
    const app = buildApp({
      db: ctx.database.db,
      config: testConfig(),
      walks: walkGate(walkLimits(5)),
    });
    const path = `/api/v1/device-data/public/report/compliance/${DEMO.reportHash}`;
    for (let i = 0; i < 5; i++)
      expect((await app.request(`http://localhost${path}?end=${2_000_000_000 - i}`)).status).not.toBe(429);
    const res = await app.request(`http://localhost${path}`);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(5);
    expect((await res.json()).data[0].message).toBe(WALKS_TOO_MANY);
  });
});
