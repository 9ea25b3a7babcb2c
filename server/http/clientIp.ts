import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";

/**
 * Rate limits key IPv6 clients by their /64: one subscriber usually holds a whole /64, so a
 * per-address key would give them 2^64 fresh allowances. IPv4 (and IPv4-mapped) stay whole.
 */
export function rateLimitKey(address: string): string {
  const plain = address
    .replace(/^\[|\]$/g, "")
    .split("%")[0]!
    .toLowerCase();
  if (!plain.includes(":") || /^::ffff:\d+\.\d+\.\d+\.\d+$/.test(plain)) return plain;
  const [head = "", tail = ""] = plain.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = plain.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => String(parseInt(g || "0", 16).toString(16)))
    .join(":")}::/64`;
}

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
    if (hops.length) return rateLimitKey(hops[hops.length - 1]!);
  }
  try {
    return rateLimitKey(getConnInfo(c).remote.address ?? "unknown");
  } catch {
    return "unknown";
  }
}
