import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";

/**
 * The client's address for rate limits: the socket's peer, or with TRUST_PROXY the last
 * X-Forwarded-For hop (the one our own proxy appended), never a client-chosen first entry.
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = (c.req.header("x-forwarded-for") ?? "")
      .split(",")
      .map((h) => h.trim())
      .filter(Boolean);
    if (hops.length) return hops[hops.length - 1]!;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}
