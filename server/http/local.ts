import type { Context, MiddlewareHandler } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import { isLoopbackAddress, isLoopbackName } from "./hostNames.ts";
import { requestHosts } from "./hosts.ts";
import { refuse } from "./refusal.ts";

export const DEMO_LOCAL_ONLY =
  "This demo answers only the computer it runs on. Start it with DEMO=1 to share it, or DEMO=0 for real use.";
export const MAILBOX_LOCAL_ONLY =
  "The dev mailbox answers only the computer the portal runs on (http://localhost).";

/** Headers a proxy adds: a request relayed by one is not from this computer, whatever the socket says. */
const RELAYED = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-forwarded-server",
  "x-original-forwarded-for",
  "x-real-ip",
  "x-client-ip",
  "cf-connecting-ip",
  "true-client-ip",
  "via",
];

/** The socket's peer; undefined where there is no socket (app.request in tests passes none). */
function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** True for a request from this computer: a loopback socket, a loopback Host, no proxy between. */
export function isLocalRequest(c: Context): boolean {
  return (
    isLoopbackAddress(socketAddress(c)) &&
    requestHosts(c).every((h) => !!h && isLoopbackName(h.hostname)) &&
    !RELAYED.some((name) => c.req.header(name) !== undefined)
  );
}

/** The default demo (DEMO unset) publishes known passwords, so it answers this computer only. */
export const localOnly: MiddlewareHandler = async (c, next) => {
  if (!isLocalRequest(c)) return refuse(c, 403, DEMO_LOCAL_ONLY);
  return next();
};
