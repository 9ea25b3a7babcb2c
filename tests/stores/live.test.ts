import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import type { DeviceDetails } from "../../src/api/devices.ts";
import type { LiveState } from "../../src/api/live.ts";
import { socketOrigin, socketUrl } from "../../src/api/liveSocket.ts";
import { loadConfig } from "../../src/stores/config.ts";
import {
  liveStore,
  mergeLive,
  retryDelay,
  watchDevice,
  type LiveConnection,
  type SocketLike,
} from "../../src/stores/live.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { fakeApi, fakeNavigation } from "./fakeApi.ts";

/** A websocket the test drives: what the store sent, and the server's side of the events. */
class FakeSocket implements SocketLike {
  readonly url: string;
  sent: unknown[] = [];
  closedWith: number | null = null;
  private listeners = new Map<string, (event: never) => void>();
  constructor(url: string) {
    this.url = url;
  }
  addEventListener(type: string, listener: (event: never) => void) {
    this.listeners.set(type, listener);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close(code = 1000) {
    this.closedWith = code;
  }
  private emit(type: string, event: unknown) {
    (this.listeners.get(type) as ((e: unknown) => void) | undefined)?.(event);
  }
  open() {
    this.emit("open", {});
  }
  say(message: unknown) {
    this.emit("message", { data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.emit("close", { code });
  }
}

const state = (over: Partial<LiveState> = {}): LiveState => ({
  type: "state",
  cause: "push",
  deviceId: 7,
  time: 1_800_000_000,
  lastMessageTimestamp: 1_800_000_000,
  pushStatus: 1,
  pushInterval: 600,
  uptime: 42,
  status: "pushing",
  readings: { AA_S1_1200_0_1: 5.5 },
  groups: { AA_S1_1200_0: 1_800_000_000 },
  sensors: [{ macAddress: "S1", battery: 50, signal: -70, pluggedIn: false, lastReceived: 1_800_000_000 }],
  ...over,
});

let sockets: FakeSocket[];
let states: LiveState[];
let connections: LiveConnection["state"][];
let resumed: number;
const settle = () => vi.advanceTimersByTimeAsync(0);
const last = () => sockets[sockets.length - 1]!;

/** Starts a watch with a fake socket factory; the jitter is pinned to its longest wait. */
async function watch(target: Parameters<typeof watchDevice>[0] = { deviceId: 7 }) {
  const stop = watchDevice(
    target,
    {
      onState: (s) => states.push(s),
      onConnection: (c) => connections.push(c.state),
      onResume: () => resumed++,
    },
    { connect: (url) => (sockets.push(new FakeSocket(url)), last()), random: () => 1 },
  );
  await settle();
  return stop;
}

beforeAll(async () => {
  fakeApi();
  await loadConfig();
  vi.unstubAllGlobals();
});
beforeEach(() => {
  vi.useFakeTimers();
  fakeNavigation("/s/devices/7");
  sockets = [];
  states = [];
  connections = [];
  resumed = 0;
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("watching a device live", () => {
  test("subscribes on this origin's websocket and hands over each state", async () => {
    const stop = await watch();
    expect(last().url).toBe("wss://web.test/ws");
    last().open();
    expect(last().sent).toEqual([{ type: "subscribe", deviceId: 7 }]);
    last().say(state({ cause: "subscribe" }));
    last().say({ type: "heartbeat", time: 1 });
    last().say(state({ uptime: 43 }));
    expect(states.map((s) => [s.cause, s.uptime])).toEqual([
      ["subscribe", 42],
      ["push", 43],
    ]);
    expect(connections).toEqual(["connecting", "live"]);
    stop();
  });

  test("subscribes by public page hash", async () => {
    const stop = await watch({ publicPageHash: "abc_DEF-123" });
    last().open();
    expect(last().sent).toEqual([{ type: "subscribe", publicPageHash: "abc_DEF-123" }]);
    stop();
  });

  test("reconnects after a drop with growing pauses, subscribes again and resumes", async () => {
    const stop = await watch();
    last().open();
    last().say(state({ cause: "subscribe" }));
    last().drop();
    expect(connections.at(-1)).toBe("reconnecting");
    await vi.advanceTimersByTimeAsync(999);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);
    last().drop(); // refused at the door: the next pause doubles
    await vi.advanceTimersByTimeAsync(1999);
    expect(sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(3);
    last().open();
    expect(last().sent).toEqual([{ type: "subscribe", deviceId: 7 }]);
    last().say(state({ cause: "subscribe", uptime: 99 }));
    expect(resumed).toBe(1);
    expect(states.at(-1)?.uptime).toBe(99);
    expect(connections.at(-1)).toBe("live");
    last().drop(); // a working connection resets the pauses
    await vi.advanceTimersByTimeAsync(1000);
    expect(sockets).toHaveLength(4);
    stop();
  });

  test("reconnects when the server falls silent for two and a half heartbeats", async () => {
    const stop = await watch();
    last().open();
    last().say(state());
    await vi.advanceTimersByTimeAsync(49_999);
    expect(last().closedWith).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets[0]!.closedWith).toBe(1000);
    expect(connections.at(-1)).toBe("reconnecting");
    await vi.advanceTimersByTimeAsync(1000);
    expect(sockets).toHaveLength(2);
    stop();
  });

  test("stops for good on a refusal, by message or by close code", async () => {
    const stop = await watch();
    const seen: LiveConnection[] = [];
    last().open();
    last().say({ type: "refused", status: 404, message: "Not found." });
    expect(connections.at(-1)).toBe("refused");
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sockets).toHaveLength(1);
    stop();

    const again = watchDevice(
      { deviceId: 8 },
      { onState: () => {}, onConnection: (c) => seen.push(c) },
      { connect: (url) => (sockets.push(new FakeSocket(url)), last()) },
    );
    await settle();
    last().drop(4401);
    expect(seen.at(-1)).toEqual({ state: "refused", status: 401, message: "" });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sockets).toHaveLength(2);
    again();
  });

  test("stop() closes the socket and never reconnects", async () => {
    const stop = await watch();
    last().open();
    stop();
    expect(last().closedWith).toBe(1000);
    expect(connections.at(-1)).toBe("stopped");
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sockets).toHaveLength(1);
  });

  test("reconnects at once when the browser is back online", async () => {
    const listeners = new Map<string, () => void>();
    vi.stubGlobal("addEventListener", (type: string, f: () => void) => listeners.set(type, f));
    vi.stubGlobal("removeEventListener", (type: string) => listeners.delete(type));
    const stop = await watch();
    last().open();
    last().drop();
    listeners.get("online")!();
    await settle();
    expect(sockets).toHaveLength(2);
    stop();
    expect(listeners.has("online")).toBe(false);
  });

  test("as a store, connects while listened to and stops when the last listener leaves", async () => {
    const $live = liveStore(
      { deviceId: 7 },
      { connect: (url) => (sockets.push(new FakeSocket(url)), last()) },
    );
    const off = $live.listen(() => {});
    await settle();
    last().open();
    last().say(state());
    expect($live.get()).toMatchObject({ connection: { state: "live" }, state: { uptime: 42 } });
    off();
    await vi.advanceTimersByTimeAsync(1000);
    expect(last().closedWith).toBe(1000);
  });
});

describe("the live helpers", () => {
  test("wait 1 s, 2 s, 4 s ... at most 30 s between attempts, less by up to half at random", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => retryDelay(n, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(retryDelay(0, () => 0)).toBe(500);
  });

  test.each([
    ["", "https://portal.example.com", "wss://portal.example.com/ws"],
    ["", "http://localhost:4321", "ws://localhost:4321/ws"],
    ["https://live.example.com", "https://portal.example.com", "wss://live.example.com/ws"],
    ["http://127.0.0.1:4513", "https://portal.example.com", "ws://127.0.0.1:4513/ws"],
    ["wss://live.example.com:8443", "https://portal.example.com", "wss://live.example.com:8443/ws"],
  ])("finds the socket of WS_ORIGIN %j from a page on %s at %s", (base, page, url) => {
    expect(socketUrl(base, page)).toBe(url);
  });

  test("names the websocket origin a page's CSP must allow", () => {
    expect(socketOrigin("https://live.example.com")).toBe("wss://live.example.com");
  });

  test("lays a live state over the device details", () => {
    const details = {
      general: { id: 7, lastMessageTimestamp: 1, pushStatus: 0, pushInterval: 600, uptime: 1, name: "Lab" },
      sensors: [
        {
          macAddress: "S1",
          battery: 90,
          signal: -50,
          pluggedIn: true,
          lastReceived: 1,
          label: "Cold Room",
          channelGroups: [
            {
              channelKey: "AA_S1_1200_0",
              lastReceived: 1,
              label: null,
              channels: [
                { channelKey: "AA_S1_1200_0_1", value: 1, name: "Temperature" },
                { channelKey: "AA_S1_1200_0_2", value: 60, name: "Humidity" },
              ],
            },
          ],
        },
      ],
    } as unknown as DeviceDetails;
    const merged = mergeLive(details, state());
    expect(merged.general).toMatchObject({
      lastMessageTimestamp: 1_800_000_000,
      pushStatus: 1,
      uptime: 42,
      name: "Lab",
    });
    const sensor = merged.sensors[0]!;
    expect(sensor).toMatchObject({ battery: 50, signal: -70, pluggedIn: false, label: "Cold Room" });
    expect(sensor.channelGroups[0]!.lastReceived).toBe(1_800_000_000);
    expect(sensor.channelGroups[0]!.channels.map((c) => c.value)).toEqual([5.5, 60]);
    expect(details.sensors[0]!.channelGroups[0]!.channels[0]!.value).toBe(1);
  });
});
