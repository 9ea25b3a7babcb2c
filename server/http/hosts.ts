import type { Context } from "hono";
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

/** Accepted host texts remembered, at most this many: a client may send any number of names. */
const REMEMBERED_HOSTS = 64;

/** The authority of an absolute URL ("http://name:port/path" → "name:port"), as URL.host would give it. */
function urlHost(url: string): string {
  const start = url.indexOf("//") + 2;
  const end = url.indexOf("/", start);
  return url.slice(start, end < 0 ? undefined : end);
}

/**
 * The refusal (421) of a request for a host name that is not ours, else undefined. Emailed links no longer depend on
 * Host, but a page on a DNS-rebinding name (attacker.example resolving to 127.0.0.1) would
 * otherwise be same-origin with a local portal; its Host is the attacker's name.
 * /healthz stays open: load balancers probe by address, and it tells nothing.
 * Every request asks this: the few names that passed are remembered instead of parsed again.
 */
export function hostRefusal(config: Config): (c: Context) => Response | undefined {
  const served = servedHosts(config);
  const known = (h: HostName | null) =>
    !!h && (isLoopbackName(h.hostname) || served.some((s) => sameHost(s, h)));
  const accepted = new Set<string>();
  const ours = (text: string) => {
    if (accepted.has(text)) return true;
    if (!known(parseHost(text))) return false;
    if (accepted.size < REMEMBERED_HOSTS) accepted.add(text);
    return true;
  };
  return (c) => {
    const header = c.req.header("host");
    const fine = ours(urlHost(c.req.url)) && (header === undefined || ours(header));
    return fine || c.req.path === "/healthz" ? undefined : refuse(c, 421, HOST_REFUSED);
  };
}
