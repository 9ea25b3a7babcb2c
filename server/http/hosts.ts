import type { Context, MiddlewareHandler } from "hono";
import type { Config } from "../config.ts";
import {
  isLoopbackListen,
  isLoopbackName,
  isWildcardAddress,
  parseHost,
  sameHost,
  type HostName,
} from "./hostNames.ts";
import { refuse } from "./refusal.ts";

export const HOST_REFUSED = "This portal does not answer to that host name.";

/** The host names a request claims: its URL's (what Hono routes on) and its Host header. */
export function requestHosts(c: Context): (HostName | null)[] {
  const header = c.req.header("host");
  return [new URL(c.req.url).host, ...(header === undefined ? [] : [header])].map(parseHost);
}

/** The names this portal answers to besides loopback names: its origins, ALLOWED_HOSTS and HOST itself. */
export function servedHosts(config: Config): HostName[] {
  const origins = Object.values(config.origins)
    .filter(Boolean)
    .map((origin) => new URL(origin))
    .map((url) => ({ hostname: url.hostname, port: url.port }));
  const listen = isWildcardAddress(config.host) || isLoopbackListen(config.host) ? [] : [config.host];
  return [...origins, ...[...config.allowedHosts, ...listen].flatMap((h) => parseHost(h) ?? [])];
}

/**
 * Refuses requests for a host name that is not ours (421). Emailed links no longer depend on
 * Host, but a page on a DNS-rebinding name (attacker.example resolving to 127.0.0.1) would
 * otherwise be same-origin with a local portal; its Host is the attacker's name.
 * /healthz stays open: load balancers probe by address, and it tells nothing.
 */
export function hostCheck(config: Config): MiddlewareHandler {
  const served = servedHosts(config);
  const known = (h: HostName | null) =>
    !!h && (isLoopbackName(h.hostname) || served.some((s) => sameHost(s, h)));
  return async (c, next) => {
    if (c.req.path !== "/healthz" && !requestHosts(c).every(known)) return refuse(c, 421, HOST_REFUSED);
    return next();
  };
}
