import { map, onMount, type MapStore } from "nanostores";
import type { DeviceDetails } from "../api/devices.ts";
import type { LiveState, LiveTarget, ServerMessage } from "../api/live.ts";
import { HEARTBEAT_SECONDS, REFUSED_CLOSE_BASE, socketUrl } from "../api/liveSocket.ts";
import { loadConfig } from "./config.ts";
import { here } from "./navigate.ts";

export type { LiveState, LiveTarget } from "../api/live.ts";

/** Where a watch stands: connecting, live, waiting to reconnect, refused for good, or stopped. */
export type LiveConnection =
  | { state: "connecting" }
  | { state: "live" }
  | { state: "reconnecting"; attempt: number; inMs: number }
  | { state: "refused"; status: number; message: string }
  | { state: "stopped" };

export interface WatchHandlers {
  /** Every state: at subscribe, after every push, and after every reconnect (covering what was missed). */
  onState(state: LiveState): void;
  onConnection?(connection: LiveConnection): void;
  /** A reconnect has brought the watch back: refetch what the live state does not carry (names, labels). */
  onResume?(): void;
}

/** The part of a browser WebSocket a watch uses; tests pass a fake. */
export interface SocketLike {
  send(text: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (event: { code: number }) => void): void;
}

export interface WatchOptions {
  connect?: (url: string) => SocketLike;
  /** 0 to 1, for the reconnect jitter. */
  random?: () => number;
}

/** The window's events where there is a window (not in tests of the store). */
const browser = globalThis as Partial<Pick<Window, "addEventListener" | "removeEventListener">>;
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;
/** Silence this long means the connection is dead, even if the browser has not noticed. */
const SILENCE_MS = HEARTBEAT_SECONDS * 2500;

/** The wait before reconnect attempt n (0-based): doubling from 1 s to 30 s, each 50 to 100 % of that. */
export const retryDelay = (attempt: number, random: () => number) =>
  Math.round(Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt) * (0.5 + random() / 2));

/**
 * Watches a device live over the websocket host (WS_ORIGIN from the runtime config, this
 * origin when empty): subscribes, hands every state to `onState`, reconnects with backoff
 * after a drop or a silent connection and subscribes again (the server then sends the current
 * state, so nothing is missed); a refusal (signed out, foreign device, deleted public link)
 * ends it. Returns stop().
 */
export function watchDevice(
  target: LiveTarget,
  handlers: WatchHandlers,
  options: WatchOptions = {},
): () => void {
  const connect = options.connect ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const random = options.random ?? Math.random;
  let socket: SocketLike | null = null;
  let attempt = 0;
  let dropped = false;
  let live = false;
  let done = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let silence: ReturnType<typeof setTimeout> | undefined;
  const tell = (c: LiveConnection) => handlers.onConnection?.(c);

  /** Closes the current socket; events of a socket no longer current are ignored. */
  const detach = () => {
    clearTimeout(silence);
    socket?.close();
    socket = null;
  };
  const listen = () => {
    clearTimeout(silence);
    silence = setTimeout(drop, SILENCE_MS);
  };
  const end = (c: LiveConnection) => {
    done = true;
    clearTimeout(retry);
    detach();
    browser.removeEventListener?.("online", now);
    tell(c);
  };
  function drop() {
    detach();
    if (done) return;
    dropped = true;
    const inMs = retryDelay(attempt, random);
    attempt += 1;
    tell({ state: "reconnecting", attempt, inMs });
    retry = setTimeout(() => void open(), inMs);
  }
  function now() {
    if (done || socket) return;
    clearTimeout(retry);
    void open();
  }
  const receive = (m: ServerMessage) => {
    if (m.type === "refused") return end({ state: "refused", status: m.status, message: m.message });
    if (m.type !== "state") return;
    if (!live) tell({ state: "live" });
    if (dropped) handlers.onResume?.();
    live = true;
    attempt = 0;
    dropped = false;
    handlers.onState(m);
  };

  async function open() {
    const config = await loadConfig();
    if (done) return;
    tell({ state: "connecting" });
    live = false;
    const s = connect(socketUrl(config.wsBase, here().origin));
    socket = s;
    listen();
    s.addEventListener(
      "open",
      () => s === socket && s.send(JSON.stringify({ type: "subscribe", ...target })),
    );
    s.addEventListener("message", (e) => {
      if (s !== socket) return;
      listen();
      const m = parse(e.data);
      if (m) receive(m);
    });
    s.addEventListener("close", (e) => {
      if (s !== socket) return;
      const status = e.code - REFUSED_CLOSE_BASE;
      if (status >= 400 && status < 500) end({ state: "refused", status, message: "" });
      else drop();
    });
  }

  // A browser back online need not wait out the backoff.
  browser.addEventListener?.("online", now);
  void open();
  return () => end({ state: "stopped" });
}

const parse = (data: unknown): ServerMessage | null => {
  try {
    const m = JSON.parse(String(data)) as ServerMessage;
    return typeof m === "object" && m !== null && typeof m.type === "string" ? m : null;
  } catch {
    return null;
  }
};

/** The device details with a live state laid over them: readings, last push, status, batteries. */
export function mergeLive(details: DeviceDetails, live: LiveState): DeviceDetails {
  const sensorsByMac = new Map(live.sensors.map((s) => [s.macAddress, s]));
  return {
    general: {
      ...details.general,
      lastMessageTimestamp: live.lastMessageTimestamp,
      pushStatus: live.pushStatus,
      pushInterval: live.pushInterval,
      uptime: live.uptime,
    },
    sensors: details.sensors.map((s) => ({
      ...s,
      ...pick(sensorsByMac.get(s.macAddress), ["battery", "signal", "pluggedIn", "lastReceived"]),
      channelGroups: s.channelGroups.map((g) => ({
        ...g,
        lastReceived: g.channelKey in live.groups ? live.groups[g.channelKey]! : g.lastReceived,
        channels: g.channels.map((c) =>
          c.channelKey in live.readings ? { ...c, value: live.readings[c.channelKey]! } : c,
        ),
      })),
    })),
  };
}

const pick = <T extends object, K extends keyof T>(value: T | undefined, keys: K[]): Partial<Pick<T, K>> =>
  value ? (Object.fromEntries(keys.map((k) => [k, value[k]])) as Pick<T, K>) : {};

export interface LiveView {
  connection: LiveConnection;
  state: LiveState | null;
}

/**
 * The same as a store: connects while something listens to it (nanostores onMount) and
 * stops when the last listener leaves.
 */
export function liveStore(target: LiveTarget, options: WatchOptions = {}): MapStore<LiveView> {
  const $live = map<LiveView>({ connection: { state: "connecting" }, state: null });
  onMount($live, () =>
    watchDevice(
      target,
      {
        onState: (state) => $live.setKey("state", state),
        onConnection: (connection) => $live.setKey("connection", connection),
      },
      options,
    ),
  );
  return $live;
}
