import { setTimeout as sleep } from "node:timers/promises";
import { LIVE_PATH, REFUSED_CLOSE_BASE } from "../../src/api/liveSocket.ts";

/** One socket of a live client: when it opened and closed, its close code, the states it got. */
export interface Connection {
  opened: number;
  closed: number | null;
  code: number | null;
  states: { cause: string; at: number }[];
}

export interface LiveClient {
  hash: string;
  connections: Connection[];
  /** Set when the server refused the subscription (a 4xxx close): the client stops, as a page does. */
  refused: boolean;
}

/** The page's reconnect wait (src/stores/live.ts retryDelay): 1 s doubling to 30 s, 50-100 % of it. */
const retryDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** attempt) * (0.5 + Math.random() / 2);

/**
 * A public device page's live watch, as src/stores/live.ts does it: subscribes by the public
 * hash, and after any close other than a refusal reconnects with the page's backoff (reset by
 * the first state of a socket). Runs until `running()` turns false; `client` fills as it goes.
 */
export function watchLive(base: string, hash: string, running: () => boolean) {
  const client: LiveClient = { hash, connections: [], refused: false };
  return { client, done: watch(client, base, running) };
}

async function watch(client: LiveClient, base: string, running: () => boolean): Promise<LiveClient> {
  const hash = client.hash;
  const url = `${base.replace(/^http/, "ws")}${LIVE_PATH}`;
  let attempt = 0;
  while (running() && !client.refused) {
    const connection: Connection = { opened: Date.now(), closed: null, code: null, states: [] };
    client.connections.push(connection);
    const socket = new WebSocket(url);
    socket.addEventListener("open", () =>
      socket.send(JSON.stringify({ type: "subscribe", publicPageHash: hash })),
    );
    socket.addEventListener("message", (e) => {
      const m = JSON.parse(String(e.data)) as { type: string; cause?: string };
      if (m.type === "state") {
        connection.states.push({ cause: m.cause ?? "", at: Date.now() });
        attempt = 0;
      }
    });
    await new Promise<void>((resolve) => {
      socket.addEventListener("close", (e) => {
        connection.closed = Date.now();
        connection.code = e.code;
        if (e.code - REFUSED_CLOSE_BASE >= 400 && e.code - REFUSED_CLOSE_BASE < 500) client.refused = true;
        resolve();
      });
      // The run's end closes the socket from this side.
      const stop = setInterval(() => {
        if (running()) return;
        clearInterval(stop);
        socket.close(1000);
      }, 100);
      socket.addEventListener("close", () => clearInterval(stop));
    });
    if (!running()) break;
    await sleep(retryDelay(attempt++));
  }
  return client;
}

/**
 * Whether the client has come back after `since`: a socket opened since then got the fresh
 * state of a subscribe and then a push's state (the new process's announcements reach it).
 */
export function backSince(client: LiveClient, since: number): { at: number } | null {
  for (const c of client.connections) {
    if (c.opened < since) continue;
    const subscribed = c.states.find((s) => s.cause === "subscribe");
    if (subscribed && c.states.some((s) => s.cause === "push" && s.at > subscribed.at))
      return { at: subscribed.at };
  }
  return null;
}
