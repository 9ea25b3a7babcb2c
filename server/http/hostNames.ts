/** A Host header or ALLOWED_HOSTS entry: a lower-case name (IPv6 in brackets) and the port it names, if any. */
export interface HostName {
  hostname: string;
  port: string;
}

/**
 * Reads "name[:port]" the way a URL would (lower case, punycode, a final dot dropped); null
 * for anything else: a path, a scheme, user info, a wildcard.
 */
export function parseHost(text: string): HostName | null {
  if (!text || /[/\\?#@*\s]/.test(text)) return null;
  try {
    const url = new URL(`http://${text}`);
    return { hostname: url.hostname.replace(/\.$/, ""), port: url.port };
  } catch {
    return null;
  }
}

/** "name" or "name:port", as a person would write it. */
export const formatHost = (h: HostName) => (h.port ? `${h.hostname}:${h.port}` : h.hostname);

/** Ports are compared only when both sides name one: proxies often drop the port a browser sent. */
export const sameHost = (a: HostName, b: HostName) =>
  a.hostname === b.hostname && (!a.port || !b.port || a.port === b.port);

const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Names that always mean this computer: localhost and *.localhost (RFC 6761), 127.0.0.0/8, [::1]. */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost") || IPV4_LOOPBACK.test(name) || name === "[::1]";
}

/** A socket peer on this computer (IPv4, IPv6, or IPv4 mapped into IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || IPV4_LOOPBACK.test(address.replace(/^::ffff:/i, ""));
}

/** Listen addresses that accept every interface. */
export function isWildcardAddress(host: string): boolean {
  return ["", "0.0.0.0", "::", "[::]"].includes(host.trim());
}

/** A HOST to listen on that only this computer can reach. */
export function isLoopbackListen(host: string): boolean {
  const h = host.trim().toLowerCase();
  return h === "::1" || (!isWildcardAddress(h) && isLoopbackName(parseHost(h)?.hostname ?? ""));
}

/** Where this computer reaches a server listening on HOST (a wildcard listens on loopback too). */
export function dialHost(host: string): string {
  const h = host.trim();
  if (isWildcardAddress(h)) return "127.0.0.1";
  return h.includes(":") && !h.startsWith("[") ? `[${h}]` : h;
}
