import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve, type WebSocketServerLike } from "@hono/node-server";
import { WebSocket, WebSocketServer } from "ws";
import type { buildApp } from "../../server/app.ts";
import { LIVE_PATH, ServerMessageSchema, type ServerMessage } from "../../src/api/live.ts";
import type { Browser } from "./client.ts";

/* The live tests' pieces: the app served on a real port with its websocket, and a socket client. */

/** Serves the app on a free loopback port, websocket included, as server/index.ts does. */
export async function serveApp(app: ReturnType<typeof buildApp>) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const websocket = { server: wss as unknown as WebSocketServerLike };
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", websocket });
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => {
      for (const c of wss.clients) c.terminate();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** The cookie header a test browser would send. */
export const cookieOf = (b: Browser) => [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ");

export interface LiveClient {
  socket: WebSocket;
  /** Every message so far, each checked against the contract. */
  messages: ServerMessage[];
  send(message: unknown): void;
  /** The first message so far or to come of that type that matches, within `ms`. */
  next<T extends ServerMessage["type"]>(
    type: T,
    ms?: number,
    match?: (m: Extract<ServerMessage, { type: T }>) => boolean,
  ): Promise<Extract<ServerMessage, { type: T }>>;
  /** The close code, once the socket closes. */
  closed: Promise<number>;
}

/** Opens the live socket the way a page on `origin` would, with the browser's cookie. */
export async function openLive(base: string, opts: { cookie?: string; origin?: string } = {}) {
  const headers: Record<string, string> = { origin: opts.origin ?? base };
  if (opts.cookie) headers["cookie"] = opts.cookie;
  const socket = new WebSocket(`${base.replace(/^http/, "ws")}${LIVE_PATH}`, { headers });
  const messages: ServerMessage[] = [];
  const waiters = new Set<() => void>();
  socket.on("message", (data) => {
    messages.push(ServerMessageSchema.parse(JSON.parse(String(data))));
    for (const w of waiters) w();
  });
  const closed = new Promise<number>((done) => socket.on("close", (code) => done(code)));
  const client: LiveClient = {
    socket,
    messages,
    closed,
    send: (m) => socket.send(typeof m === "string" ? m : JSON.stringify(m)),
    next: (type, ms = 2000, match = () => true) =>
      new Promise((resolve, reject) => {
        let seen = 0;
        const check = () => {
          for (; seen < messages.length; seen++) {
            const m = messages[seen]!;
            if (m.type === type && match(m as never)) {
              waiters.delete(check);
              clearTimeout(timer);
              return resolve(m as never);
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${type} message within ${ms} ms; got ${JSON.stringify(messages)}`));
        }, ms);
        waiters.add(check);
        check();
      }),
  };
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
    socket.once("unexpected-response", (_req, res) =>
      reject(new Error(`handshake answered ${res.statusCode}`)),
    );
  });
  return client;
}
