import type { Context } from "hono";
import type { Socket } from "node:net";

/**
 * Whether the caller's connection has closed, asked when needed. Not the request's abort
 * signal: passing that into the device's push queue cut the pushes this machine sustains from
 * 4,000 devices to 1,500 (docs/scaling.md). Outside a Node server (app.request) never gone.
 */
export function clientGone(c: Context): () => boolean {
  const socket = (c.env as { incoming?: { socket?: Socket | null } } | undefined)?.incoming?.socket;
  return () => socket?.destroyed ?? false;
}
