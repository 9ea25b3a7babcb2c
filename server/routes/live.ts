import { upgradeWebSocket } from "@hono/node-server";
import { Hono, type Context } from "hono";
import type { WSContext } from "hono/ws";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { authOfSession, type Auth } from "../data/auth.ts";
import { deviceById, deviceByPublicHash } from "../data/devices.ts";
import { liveStateOf, type LiveDevice } from "../data/liveState.ts";
import { sessionBatcher } from "../data/sessionBatch.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authorize, NOT_SIGNED_IN, TERMS_REQUIRED } from "../http/auth.ts";
import { clientIp } from "../http/clientIp.ts";
import { sessionToken } from "../http/cookies.ts";
import type { Refusal, Watcher } from "../services/liveHub.ts";
import {
  BAD_SUBSCRIBE,
  LIVE_PATH,
  NOT_JSON,
  REFUSED_CLOSE_BASE,
  SubscribeSchema,
  type ServerMessage,
  type Subscribe,
} from "../../src/api/live.ts";

export const UPGRADE_ONLY = "This address takes websocket connections only.";
export const CROSS_SITE = "Cross-site request refused.";
/** Subscriptions one socket may ask for per minute (each reads the database). */
const SUBSCRIBES_PER_MINUTE = 30;
/** Closes a socket that asked for nothing within LIVE_SUBSCRIBE_SECONDS (1008: policy). */
export const NO_SUBSCRIBE = "No subscribe message in time.";
/** Closes a socket past the client's LIVE_SOCKETS_PER_CLIENT (1013: try again later). */
export const TOO_MANY_SOCKETS = "Too many live connections from this address.";

/**
 * Live sockets open per client address on this instance: a client past its cap has its new
 * socket closed at once. Counted from open to close, so every close gives its place back.
 */
function socketsPerClient(cap: number) {
  const open = new Map<string, number>();
  return {
    /** Takes a place; false when the client is past its cap (the place is held until `leave`). */
    enter(client: string) {
      const n = (open.get(client) ?? 0) + 1;
      open.set(client, n);
      return cap === 0 || n <= cap;
    },
    leave(client: string) {
      const n = (open.get(client) ?? 1) - 1;
      if (n > 0) open.set(client, n);
      else open.delete(client);
    },
  };
}

/**
 * The live readings websocket. The handshake is refused when a browser opens it from a page
 * of another site (Origin not this origin nor a configured one), since the session cookie
 * would go with it; each subscribe message is then checked as GET device-details (device.view
 * in the active subscription, another subscription's device refused like a missing one) or
 * as the public device page (the current hash of a plan with public links).
 */
export function liveRoutes(deps: Deps) {
  const origins = Object.values(deps.config.origins).filter(Boolean);
  // Session checks of all sockets (subscribes, heartbeats), gathered into a few queries.
  const recheckAuth = sessionBatcher(deps.db, deps.now);
  const clients = socketsPerClient(deps.config.liveSocketsPerClient);
  return new Hono().get(LIVE_PATH, guard({ method: "get", path: LIVE_PATH }, deps), async (c) => {
    // Only a request that reached the server as an HTTP upgrade (no response object yet) can
    // become a socket; anything else, even with an Upgrade header, is told to upgrade.
    const env = c.env as { incoming?: unknown; outgoing?: unknown } | undefined;
    const upgrading = env?.incoming !== undefined && env.outgoing === undefined;
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket" || !upgrading) {
      c.header("Upgrade", "websocket");
      return c.json({ success: false, data: [{ field: null, message: UPGRADE_ONLY }] }, 426);
    }
    const origin = c.req.header("origin");
    if (origin !== undefined && origin !== new URL(c.req.url).origin && !origins.includes(origin))
      return c.json({ success: false, data: [{ field: null, message: CROSS_SITE }] }, 403);
    const client = clientIp(c, deps.config.trustProxy);
    const place = { enter: () => clients.enter(client), leave: () => clients.leave(client) };
    return upgradeWebSocket(c, socketEvents(deps, c, recheckAuth, place));
  });
}

/**
 * One socket's life: at most one subscription, dropped when the socket closes. A socket past
 * its client's cap is closed at once; one that sends no subscribe message in time is closed
 * then (an idle socket holds a descriptor and memory for nothing).
 */
function socketEvents(
  deps: Deps,
  c: Context,
  recheckAuth: SessionAuth,
  place: { enter(): boolean; leave(): void },
) {
  const token = sessionToken(c);
  let watcher: Watcher<LiveDevice> | null = null;
  let asked = false;
  let entered = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let alive = true;
  let recent: number[] = [];
  /** Messages are handled one at a time, so two quick subscribes cannot both stay. */
  let queue: Promise<unknown> = Promise.resolve();
  const send = (ws: WSContext, m: ServerMessage) => ws.readyState === 1 && ws.send(JSON.stringify(m));
  return {
    onOpen: (_: Event, ws: WSContext) => {
      (ws.raw as { on?(e: "pong", f: () => void): void } | undefined)?.on?.("pong", () => (alive = true));
      entered = true;
      if (!place.enter()) return ws.close(1013, TOO_MANY_SOCKETS);
      idle = setTimeout(
        () => !asked && ws.close(1008, NO_SUBSCRIBE),
        deps.config.liveSubscribeSeconds * 1000,
      );
    },
    onMessage: (event: MessageEvent, ws: WSContext) => {
      queue = queue
        .then(() => handle(event, ws))
        .catch(() => ws.close(1011, "Live readings are unavailable."));
    },
    onClose: () => {
      clearTimeout(idle);
      if (entered) place.leave();
      entered = false;
      queue = queue.then(() => {
        if (watcher) deps.live.unwatch(watcher);
        watcher = null;
      });
    },
  };

  async function handle(event: MessageEvent, ws: WSContext) {
    const now = Date.now();
    recent = [...recent.filter((t) => now - t < 60_000), now];
    if (recent.length > SUBSCRIBES_PER_MINUTE) return ws.close(1008, "Too many messages.");
    const parsed = parseMessage(event.data);
    if ("error" in parsed) return send(ws, { type: "error", message: parsed.error });
    asked = true;
    if (watcher) deps.live.unwatch(watcher);
    const socket = {
      send: (m: ServerMessage) => send(ws, m),
      heartbeat: (time: number) => {
        const raw = ws.raw as { ping?(): void; terminate?(): void } | undefined;
        if (!alive) return (raw?.terminate?.(), false);
        alive = false;
        raw?.ping?.();
        send(ws, { type: "heartbeat", time });
        return true;
      },
      refuse: (r: Refusal) => {
        send(ws, { type: "refused", ...r });
        ws.close(REFUSED_CLOSE_BASE + r.status, r.message);
      },
      goAway: () => ws.close(1001, "The server is restarting."),
    };
    const made = await watcherFor(deps, token, parsed.subscribe, socket, recheckAuth);
    if ("refusal" in made) return socket.refuse(made.refusal);
    watcher = made.watcher;
    await deps.live.watch(watcher);
    // A sign-out between the check above and the watch's start was announced to no one:
    // asked once more now that the watch is there, it is refused like at a heartbeat.
    const after = await watcher.recheck();
    if (after) {
      deps.live.unwatch(watcher);
      watcher = null;
      socket.refuse(after);
    }
  }
}

/** A subscribe message, or what is wrong with the text. */
function parseMessage(data: unknown): { subscribe: Subscribe } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(typeof data === "string" ? data : "");
  } catch {
    return { error: NOT_JSON };
  }
  const result = SubscribeSchema.safeParse(json);
  return result.success ? { subscribe: result.data } : { error: BAD_SUBSCRIBE };
}

type Socket = Pick<Watcher<LiveDevice>, "send" | "heartbeat" | "refuse" | "goAway">;

type SessionAuth = (token: string | null) => Promise<Auth | null>;

/** The session's refusal as the API would answer it (401, 403 terms, 404 or 403 by authorize). */
async function sessionRefusal(
  deps: Deps,
  token: string | null,
  device: { subscriptionId: number } | null,
  authOf: SessionAuth = (t) => authOfSession(deps.db, t, deps.now()),
): Promise<{ refusal: Refusal } | { auth: Auth }> {
  const auth = await authOf(token);
  if (!auth) return { refusal: { status: 401, message: NOT_SIGNED_IN } };
  if (auth.user.termsAcceptedAt === null) return { refusal: { status: 403, message: TERMS_REQUIRED } };
  try {
    if (!device) throw new ApiError(404, NOT_FOUND);
    authorize(auth, "device.view", device);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { refusal: { status: e.status === 403 ? 403 : 404, message: e.message } };
  }
  return { auth };
}

/** Checks a subscription and builds its watcher, or says why not. */
async function watcherFor(
  deps: Deps,
  token: string | null,
  subscribe: Subscribe,
  socket: Socket,
  recheckAuth: SessionAuth,
): Promise<{ watcher: Watcher<LiveDevice> } | { refusal: Refusal }> {
  const render = (audience: "owner" | "public") => (d: LiveDevice, cause: "subscribe" | "push") =>
    liveStateOf(d, audience, cause, deps.now());
  if ("publicPageHash" in subscribe) {
    const hash = subscribe.publicPageHash;
    const device = await deviceByPublicHash(deps.db, hash);
    if (!device) return { refusal: { status: 404, message: NOT_FOUND } };
    const admits = (d: LiveDevice) => d.publicPageHash === hash;
    const recheck = async () => null;
    return { watcher: { ...socket, deviceId: device.id, admits, recheck, render: render("public") } };
  }
  const device = await deviceById(deps.db, subscribe.deviceId);
  const checked = await sessionRefusal(deps, token, device, recheckAuth);
  if ("refusal" in checked) return checked;
  const subscriptionId = checked.auth.subscription.id;
  const admits = (d: LiveDevice) => d.subscriptionId === subscriptionId;
  const recheck = async () => {
    const again = await sessionRefusal(deps, token, { subscriptionId }, recheckAuth);
    return "refusal" in again ? again.refusal : null;
  };
  const userId = checked.auth.user.id;
  const watcher = {
    ...socket,
    deviceId: subscribe.deviceId,
    userId,
    admits,
    recheck,
    render: render("owner"),
  };
  return { watcher };
}
