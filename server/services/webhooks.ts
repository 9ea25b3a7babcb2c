import { createHmac } from "node:crypto";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP } from "node:net";

/** Which addresses a webhook may reach besides public ones (config WEBHOOK_PRIVATE). */
export type PrivatePolicy = "deny" | "loopback" | "allow";

export const SIGNATURE_HEADER = "X-Portal-Signature";
export const EVENT_ID_HEADER = "X-Portal-Event-Id";
export const PRIVATE_REFUSED =
  "Webhook URLs may not point at this computer or a private network (WEBHOOK_PRIVATE allows it).";
const TIMEOUT_MS = 10_000;

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");
/** Private, link-local, shared, multicast and reserved ranges: the portal's own network and cloud metadata. */
const privateNets = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const)
  privateNets.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  privateNets.addSubnet(net, bits, "ipv6");

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 one. */
function unmapped(address: string): { address: string; family: "ipv4" | "ipv6" } {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return { address: m[1]!, family: "ipv4" };
  return { address, family: isIP(address) === 6 ? "ipv6" : "ipv4" };
}

/** May a webhook connect to this address under the policy? */
export function addressAllowed(address: string, policy: PrivatePolicy): boolean {
  if (policy === "allow") return true;
  const a = unmapped(address);
  if (loopback.check(a.address, a.family)) return policy === "loopback";
  return !privateNets.check(a.address, a.family);
}

/**
 * Whether a URL's host may be called, as far as its text tells (a literal address or a local
 * name); a name is checked again on every send, against every address it resolves to.
 */
export function urlAllowed(url: string, policy: PrivatePolicy): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return addressAllowed(host, policy);
  const local = host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local");
  return !local || policy !== "deny";
}

/** The signature of a body: hex HMAC-SHA256 under the subscription's secret, as "sha256=…". */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export interface WebhookResult {
  ok: boolean;
  /** "200", "HTTP 500", "refused: …", "timeout" */
  detail: string;
}

/**
 * Posts a signed JSON body. The connection is made only to addresses the policy allows: the
 * check is in the socket's own lookup, so a name that resolves to a private address at send
 * time (DNS rebinding) is refused too. Redirects are not followed.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: PrivatePolicy,
): Promise<WebhookResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ ok: false, detail: "refused: not a URL" });
      return;
    }
    let refused = false;
    const lookup = (
      hostname: string,
      options: object,
      cb: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
    ) =>
      dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return cb(err, "");
        const list = addresses as LookupAddress[];
        const bad = list.find((a) => !addressAllowed(a.address, policy));
        if (bad) {
          refused = true;
          return cb(Object.assign(new Error(PRIVATE_REFUSED), { code: "EPRIVATE" }), "");
        }
        const wantsAll = (options as { all?: boolean }).all;
        if (wantsAll) return cb(null, list);
        return cb(null, list[0]!.address, list[0]!.family);
      });
    const literal = target.hostname.replace(/^\[|\]$/g, "");
    if (isIP(literal) && !addressAllowed(literal, policy)) {
      resolve({ ok: false, detail: `refused: ${PRIVATE_REFUSED}` });
      return;
    }
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: "POST",
        lookup: lookup as never,
        timeout: TIMEOUT_MS,
        headers: { "content-type": "application/json", "user-agent": "device-portal-alerts/1", ...headers },
      },
      (res) => {
        res.resume();
        res.on("error", () => {});
        const status = res.statusCode ?? 0;
        resolve({
          ok: status >= 200 && status < 300,
          detail: status >= 200 && status < 300 ? String(status) : `HTTP ${status}`,
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    // A whole-call deadline besides the idle one: a receiver that trickles a byte every few
    // seconds would otherwise hold the delivery for ever.
    const deadline = setTimeout(() => req.destroy(new Error("timeout")), TIMEOUT_MS);
    req.on("close", () => clearTimeout(deadline));
    req.on("error", (e) =>
      resolve({
        ok: false,
        detail: refused ? `refused: ${PRIVATE_REFUSED}` : `error: ${e.message}`.slice(0, 300),
      }),
    );
    req.end(body);
  });
}
