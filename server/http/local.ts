import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import { isLoopbackAddress, isLoopbackName } from "./hostNames.ts";
import { requestHosts } from "./hosts.ts";
import { refuse } from "./refusal.ts";

export const DEMO_LOCAL_ONLY =
  "This demo answers only the computer it runs on. Start it with DEMO=1 to share it, or DEMO=0 for real use.";
export const MAILBOX_LOCAL_ONLY =
  "The dev mailbox answers only the computer the portal runs on (http://localhost).";

/**
 * Headers a proxy adds: a request relayed by one is not from this computer, whatever the socket
 * says. Named by pattern, since proxies and CDNs each have their own (X-Cluster-Client-IP,
 * Fly-Client-IP, X-Originating-IP, Forwarded-For, Client-IP, X-ProxyUser-Ip...): any name
 * with "forwarded" in it, Via, and any name ending in "ip" after a dash or as a whole.
 */
const RELAYED = /forwarded|^via$|(?:^|-)[a-z]*ip$/;

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
    ![...c.req.raw.headers.keys()].some((name) => RELAYED.test(name))
  );
}

/** The default demo (DEMO unset) publishes known passwords, so it answers this computer only. */
export const demoRefusal = (c: Context) => (isLocalRequest(c) ? undefined : refuse(c, 403, DEMO_LOCAL_ONLY));
