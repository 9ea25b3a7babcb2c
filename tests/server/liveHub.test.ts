import { describe, expect, it } from "vitest";
import type { ServerMessage } from "../../src/api/live.ts";
import { createLiveHub, type Refusal, type Watcher } from "../../server/services/liveHub.ts";

/* The hub's own rules, with a fake loader and fake sockets: when it reads, what it sends, to whom. */

type Device = { id: number; version: number; hash: string };

function setup() {
  const devices = new Map<number, Device>([[1, { id: 1, version: 0, hash: "h1" }]]);
  const reads: number[] = [];
  let announce: (id: number) => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  const hub = createLiveHub<Device>({
    listen: async (handlers) => {
      announce = handlers.onDevice;
      return { close: async () => {} };
    },
    load: async (id) => {
      reads.push(id);
      await gate;
      const d = devices.get(id);
      return d ? { ...d } : null;
    },
    now: () => new Date("2026-11-22T12:00:00Z"),
    heartbeatMs: 3_600_000,
  });
  const watcher = (hash: string) => {
    const got: (ServerMessage | Refusal | "away")[] = [];
    const w: Watcher<Device> = {
      deviceId: 1,
      admits: (d) => d.hash === hash,
      recheck: async () => null,
      render: (d, cause) => ({ type: "error", message: `${cause} v${d.version}` }),
      send: (m) => got.push(m),
      heartbeat: () => true,
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
  return { hub, devices, reads, watcher, hold, announce: (id: number) => announce(id) };
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
});
