// The live viewers of `npm run load` (scripts/load/liveViewers.ts): sockets that watch devices
// as a page does (public by hash, or signed in by id with a session cookie), each state they
// get kept with its arrival time, and the delay from each push's answer to the state that
// shows it on every socket watching that device.
import { WebSocket } from "ws";
import { LIVE_PATH } from "../../src/api/liveSocket.ts";
import { SESSION_COOKIE } from "../../server/http/cookies.ts";

/** What one viewer watches and through which instance. */
export interface ViewerPlan {
  base: string;
  deviceId: number;
  /** The public page hash, or the session token of a signed-in person. */
  publicPageHash?: string;
  sessionToken?: string;
}

/** A viewer's socket: the sequence numbers (see `seqOf`) of the states it got, and when. */
export interface Viewer {
  plan: ViewerPlan;
  socket: WebSocket | null;
  /** When its first state (the subscribe's) came; null until then. */
  subscribedAt: number | null;
  states: { seq: number; at: number }[];
  closedCode: number | null;
}

/** The push's sequence number travels as the value of the device's first channel. */
export const SEQ_CHANNEL = 0;

/** Opens one viewer; resolves once its subscribe state came, or with the failure. */
function open(plan: ViewerPlan, seqOf: (readings: Record<string, number | null>) => number | null) {
  const viewer: Viewer = { plan, socket: null, subscribedAt: null, states: [], closedCode: null };
  const headers: Record<string, string> = plan.sessionToken
    ? { cookie: `${SESSION_COOKIE}=${plan.sessionToken}` }
    : {};
  const socket = new WebSocket(`${plan.base.replace(/^http/, "ws")}${LIVE_PATH}`, { headers });
  viewer.socket = socket;
  const subscribed = new Promise<Viewer>((resolve) => {
    socket.on("open", () =>
      socket.send(
        JSON.stringify(
          plan.publicPageHash
            ? { type: "subscribe", publicPageHash: plan.publicPageHash }
            : { type: "subscribe", deviceId: plan.deviceId },
        ),
      ),
    );
    socket.on("message", (data) => {
      const at = performance.timeOrigin + performance.now();
      const m = JSON.parse(String(data)) as { type: string; readings?: Record<string, number | null> };
      if (m.type !== "state") return;
      if (viewer.subscribedAt === null) {
        viewer.subscribedAt = at;
        resolve(viewer);
      }
      const seq = seqOf(m.readings ?? {});
      if (seq !== null) viewer.states.push({ seq, at });
    });
    socket.on("error", () => resolve(viewer));
    socket.on("close", (code) => {
      viewer.closedCode = code;
      resolve(viewer);
    });
  });
  return subscribed;
}

/** Opens every planned viewer, `concurrency` handshakes at a time. */
export async function openViewers(
  plans: ViewerPlan[],
  seqOf: (readings: Record<string, number | null>) => number | null,
  concurrency = 200,
): Promise<Viewer[]> {
  const viewers: Viewer[] = [];
  let next = 0;
  const lane = async () => {
    while (next < plans.length) {
      const i = next++;
      viewers[i] = await open(plans[i]!, seqOf);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return viewers;
}

/** The viewers that never got their first state, counted by kind and close code ("" when all did). */
export function notWatching(viewers: Viewer[]): string {
  const codes = new Map<string, number>();
  for (const v of viewers)
    if (v.subscribedAt === null) {
      const k = `${v.plan.publicPageHash ? "public" : "signed-in"} (close code ${v.closedCode})`;
      codes.set(k, (codes.get(k) ?? 0) + 1);
    }
  return [...codes].map(([k, n]) => `${n} ${k}`).join(", ");
}

/** Closes every viewer and waits until each socket is closed. */
export async function closeViewers(viewers: Viewer[]) {
  await Promise.all(
    viewers.map(
      (v) =>
        new Promise<void>((resolve) => {
          const s = v.socket;
          if (!s || s.readyState === WebSocket.CLOSED) return resolve();
          s.once("close", () => resolve());
          s.close(1000);
        }),
    ),
  );
}

/** A push the generator made: its device, its sequence number and when its 2xx answer came. */
export interface Pushed {
  deviceId: number;
  seq: number;
  sentAt: number;
  answeredAt: number;
}

export interface Delays {
  /** (push, watching socket) pairs: each should see a state showing the push or a later one. */
  expected: number;
  delivered: number;
  missed: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;

/**
 * For each answered push and each viewer of its device subscribed before the push was sent,
 * the first state showing that push (or a later one, when announcements were merged): its
 * delay from the push's answer (0 when the state came first). None at all is a miss.
 */
export function deliveryDelays(pushes: Pushed[], viewers: Viewer[]): Delays {
  const byDevice = new Map<number, Viewer[]>();
  for (const v of viewers)
    if (v.subscribedAt !== null) byDevice.set(v.plan.deviceId, [...(byDevice.get(v.plan.deviceId) ?? []), v]);
  const delays: number[] = [];
  let expected = 0;
  for (const p of pushes) {
    for (const v of byDevice.get(p.deviceId) ?? []) {
      if (v.subscribedAt! > p.sentAt) continue;
      expected++;
      const shown = v.states.find((s) => s.seq >= p.seq);
      if (shown) delays.push(Math.max(0, shown.at - p.answeredAt));
    }
  }
  delays.sort((a, b) => a - b);
  return {
    expected,
    delivered: delays.length,
    missed: expected - delays.length,
    p50: pct(delays, 50),
    p95: pct(delays, 95),
    p99: pct(delays, 99),
    max: delays.at(-1) ?? 0,
  };
}
