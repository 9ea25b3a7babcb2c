import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { defaultLiveHub, type PortalLiveHub } from "../../server/live.ts";
import { NO_SUBSCRIBE, TOO_MANY_SOCKETS } from "../../server/routes/live.ts";
import { createLiveHub, type Watcher } from "../../server/services/liveHub.ts";
import { DEMO } from "../../server/seed/demo.ts";
import type { ServerMessage } from "../../src/api/live.ts";
import { openLive, serveApp, type LiveClient } from "./liveKit.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

/*
 * Attack review of 2026-11-29, findings 4 and 5: anonymous sockets that never subscribed lived
 * for ever, any number per client; the heartbeat read every watched device in full though a
 * cheaper admission read was wired; a session check that failed kept the socket uncounted.
 */

/** The close code and reason of a socket, once it closes. */
const closing = (live: LiveClient) =>
  new Promise<[number, string]>((done) =>
    live.socket.on("close", (code, reason) => done([code, String(reason)])),
  );

describe("live sockets per client and without a subscription", () => {
  const ctx = useTestApp({ seeded: true });
  let served: Awaited<ReturnType<typeof serveApp>>;
  let hub: PortalLiveHub;
  beforeAll(async () => {
    hub = defaultLiveHub(ctx.database.db, () => TEST_NOW, 3_600_000);
    const config = testConfig({ LIVE_SUBSCRIBE_SECONDS: "0.5", LIVE_SOCKETS_PER_CLIENT: "3" });
    served = await serveApp(buildApp({ db: ctx.database.db, config, now: () => TEST_NOW, live: hub }));
  });
  afterAll(async () => {
    await served?.close();
    await hub?.close();
  });

  it("closes a socket that asks for no device in time, and keeps one that subscribed", async () => {
    const idle = await openLive(served.origin);
    const idleClosed = closing(idle);
    const watching = await openLive(served.origin);
    watching.send({ type: "subscribe", publicPageHash: DEMO.raDeviceHash });
    await watching.next("state");
    expect(await idleClosed).toEqual([1008, NO_SUBSCRIBE]);
    await new Promise((r) => setTimeout(r, 300));
    expect(watching.socket.readyState).toBe(watching.socket.OPEN);
    watching.socket.close();
    await watching.closed;
  });

  it("closes a client's sockets past its cap with try-again-later, and takes one again once another closed", async () => {
    const held = [
      await openLive(served.origin),
      await openLive(served.origin),
      await openLive(served.origin),
    ];
    for (const live of held) live.send({ type: "subscribe", publicPageHash: DEMO.raDeviceHash });
    await Promise.all(held.map((live) => live.next("state")));
    const extra = await openLive(served.origin);
    expect(await closing(extra)).toEqual([1013, TOO_MANY_SOCKETS]);
    held[0]!.socket.close();
    await held[0]!.closed;
    const again = await openLive(served.origin);
    again.send({ type: "subscribe", publicPageHash: DEMO.raDeviceHash });
    expect((await again.next("state")).type).toBe("state");
    for (const live of [...held.slice(1), again]) {
      live.socket.close();
      await live.closed;
    }
  });
});

describe("the live heartbeat's reads", () => {
  type Device = { id: number; full: boolean };
  const setup = (recheck: () => Promise<null>) => {
    const reads = { full: 0, admission: 0 };
    const hub = createLiveHub<Device>({
      listen: async () => ({ close: async () => {} }),
      load: async (ids) => ((reads.full += 1), new Map(ids.map((id) => [id, { id, full: true }]))),
      loadAdmission: async (ids) => (
        (reads.admission += 1),
        new Map(ids.map((id) => [id, { id, full: false }]))
      ),
      now: () => TEST_NOW,
      heartbeatMs: 3_600_000,
    });
    const got: (ServerMessage | string)[] = [];
    const w: Watcher<Device> = {
      deviceId: 1,
      admits: () => true,
      recheck,
      render: () => ({ type: "error", message: "state" }),
      send: (m) => got.push(m),
      heartbeat: (time) => (got.push({ type: "heartbeat", time }), true),
      refuse: (r) => got.push(r.message),
      goAway: () => got.push("away"),
    };
    return { hub, reads, w, got };
  };

  it("reads the watched devices' admission fields only, not the full devices", async () => {
    const t = setup(async () => null);
    await t.hub.watch(t.w);
    expect(t.reads).toEqual({ full: 1, admission: 0 });
    await t.hub.beat();
    await t.hub.beat();
    expect(t.reads).toEqual({ full: 1, admission: 2 });
    await t.hub.close();
  });

  it("keeps a watcher whose session check fails, and counts the failure", async () => {
    const t = setup(() => Promise.reject(new Error("database away")));
    await t.hub.watch(t.w);
    await t.hub.beat();
    expect(t.hub.size()).toBe(1);
    expect(t.hub.recheckErrors()).toBe(1);
    expect(t.got.filter((m) => typeof m === "object" && m.type === "heartbeat")).toHaveLength(1);
    await t.hub.close();
  });
});
