import { describe, expect, it } from "vitest";
import type { ServerMessage } from "../../src/api/live.ts";
import {
  createLiveHub,
  RECHECKS_AT_ONCE,
  type Refusal,
  type Watcher,
} from "../../server/services/liveHub.ts";

/* The hub's own rules, with a fake loader and fake sockets: when it reads, what it sends, to whom. */

type Device = { id: number; version: number; hash: string };

function setup() {
  const devices = new Map<number, Device>([1, 2, 3].map((id) => [id, { id, version: 0, hash: `h${id}` }]));
  const reads: number[] = [];
  /** The ids of each call of the loader. */
  const calls: number[][] = [];
  let announce: (id: number) => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  const hub = createLiveHub<Device>({
    listen: async (handlers) => {
      announce = handlers.onDevice;
      return { close: async () => {} };
    },
    load: async (ids) => {
      calls.push([...ids]);
      reads.push(...ids);
      // The read sees the devices as they are now; a held one answers later with that.
      const found = ids.flatMap((id) => (devices.has(id) ? [{ ...devices.get(id)! }] : []));
      await gate;
      return new Map(found.map((d) => [d.id, d]));
    },
    now: () => new Date("2026-11-22T12:00:00Z"),
    heartbeatMs: 3_600_000,
  });
  const watcher = (hash: string, deviceId = 1, recheck: Watcher<Device>["recheck"] = async () => null) => {
    const got: (ServerMessage | Refusal | "away")[] = [];
    const w: Watcher<Device> = {
      deviceId,
      admits: (d) => d.hash === hash,
      recheck,
      render: (d, cause) => ({ type: "error", message: `${cause} v${d.version}` }),
      send: (m) => got.push(m),
      heartbeat: (time) => (got.push({ type: "heartbeat", time }), true),
      refuse: (r) => got.push(r),
      goAway: () => got.push("away"),
    };
    return { w, got };
  };
  const hold = () => {
    let release = () => {};
    gate = new Promise((r) => (release = r));
    return () => {
      release();
      gate = Promise.resolve();
    };
  };
  return { hub, devices, reads, calls, watcher, hold, announce: (id: number) => announce(id) };
}

/** Lets every pending read and send happen. */
const settle = () => new Promise((r) => setTimeout(r, 20));
const texts = (got: unknown[]) =>
  got.map((m) => (typeof m === "object" && m && "message" in m ? m.message : m));

describe("the live hub", () => {
  it("reads a device once for the announcements that arrive while a read is waiting", async () => {
    const t = setup();
    const { w, got } = t.watcher("h1");
    await t.hub.watch(w);
    const release = t.hold();
    t.devices.get(1)!.version = 1;
    t.announce(1);
    await settle(); // that read is now held at the gate
    t.announce(1); // queued behind it
    t.announce(1); // these share the queued one
    t.announce(1);
    release();
    await settle();
    expect(t.reads).toEqual([1, 1, 1]);
    expect(texts(got)).toEqual(["subscribe v0", "push v1", "push v1"]);
  });

  it("ignores announcements of devices nobody here watches", async () => {
    const t = setup();
    const { w } = t.watcher("h1");
    await t.hub.watch(w);
    t.announce(2);
    await settle();
    expect(t.reads).toEqual([1]);
  });

  it("refuses a watcher the device no longer admits, keeps the others, and forgets it", async () => {
    const t = setup();
    const stale = t.watcher("h1");
    const fresh = t.watcher("h2");
    await t.hub.watch(stale.w);
    t.devices.get(1)!.hash = "h2";
    await t.hub.watch(fresh.w);
    t.devices.get(1)!.version = 2;
    t.announce(1);
    await settle();
    expect(texts(stale.got)).toEqual(["subscribe v0", "Not found."]);
    expect(texts(fresh.got)).toEqual(["subscribe v0", "push v2"]);
    expect(t.hub.size()).toBe(1);
  });

  it("sends every socket away when it closes", async () => {
    const t = setup();
    const { w, got } = t.watcher("h1");
    await t.hub.watch(w);
    await t.hub.close();
    expect(got.at(-1)).toBe("away");
    expect(t.hub.size()).toBe(0);
  });

  it("reads the devices of announcements arriving together in one read, and each watcher gets its own", async () => {
    const t = setup();
    const watched = [1, 2, 3].map((id) => t.watcher(`h${id}`, id));
    for (const { w } of watched) await t.hub.watch(w);
    t.calls.length = 0;
    const release = t.hold();
    t.devices.get(1)!.version = 1;
    t.announce(1); // its round is now held at the gate
    await settle();
    for (const id of [1, 2, 3]) t.devices.get(id)!.version = 2;
    t.announce(2);
    t.announce(3);
    t.announce(1);
    release();
    await settle();
    // 2 and 3 share a read at once; 1 waits for its round to end, so its states stay in order.
    expect(t.calls).toEqual([[1], [2, 3], [1]]);
    expect(watched.map(({ got }) => texts(got))).toEqual([
      ["subscribe v0", "push v1", "push v2"],
      ["subscribe v0", "push v2"],
      ["subscribe v0", "push v2"],
    ]);
  });

  it("greets a watcher that arrives during a round with its subscribe state before any push", async () => {
    const t = setup();
    const first = t.watcher("h1");
    await t.hub.watch(first.w);
    const release = t.hold();
    t.announce(1); // held: its read was made before the newcomer came
    await settle();
    const late = t.watcher("h1");
    const watching = t.hub.watch(late.w);
    t.devices.get(1)!.version = 3;
    t.announce(1);
    release();
    await watching;
    await settle();
    expect(texts(late.got)).toEqual(["subscribe v3"]);
    expect(texts(first.got)).toEqual(["subscribe v0", "push v0", "push v3"]);
  });

  it("answers a new watcher while announcements keep coming", async () => {
    const t = setup();
    await t.hub.watch(t.watcher("h1").w);
    let announcing = true;
    const still = () => announcing;
    const keepAnnouncing = async () => {
      while (still()) {
        t.announce(1);
        await new Promise((r) => setImmediate(r));
      }
    };
    const loop = keepAnnouncing();
    const late = t.watcher("h1");
    await t.hub.watch(late.w);
    announcing = false;
    await loop;
    expect(texts(late.got)[0]).toBe("subscribe v0");
  });

  it("reads every watched device in one read at a heartbeat and checks only a few sessions at once", async () => {
    const t = setup();
    let checking = 0;
    let most = 0;
    const recheck = async () => {
      most = Math.max(most, ++checking);
      await new Promise((r) => setTimeout(r, 1));
      checking--;
      return null;
    };
    const many = RECHECKS_AT_ONCE + 30;
    const watched = Array.from({ length: many }, (_, i) =>
      t.watcher(`h${(i % 3) + 1}`, (i % 3) + 1, recheck),
    );
    await Promise.all(watched.map(({ w }) => t.hub.watch(w)));
    t.calls.length = 0;
    await t.hub.beat();
    expect(t.calls).toEqual([[1, 2, 3]]);
    expect(most).toBe(RECHECKS_AT_ONCE);
    const beaten = watched.filter(({ got }) => got.some((m) => typeof m === "object" && "time" in m));
    expect(beaten).toHaveLength(many);
  });
});
