import type { Context } from "hono";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { Endpoint, ResponseOf } from "../../src/api/endpoint.ts";

/**
 * The success envelope `{success: true, data}`. `data` must have the endpoint's response
 * type, so a handler whose answer drifts from the contract breaks the type check.
 */
export function reply<E extends Endpoint>(c: Context, _endpoint: E, data: ResponseOf<E>) {
  return c.json({ success: true, data: data as unknown });
}

const gzipped = promisify(gzip);
/** Below this a gzip saves less than its own headers cost. */
export const GZIP_FROM_BYTES = 1024;

/**
 * A success envelope serialized once and sent to many: a cached public answer (a report on a
 * wall of kiosks, an order link shared with a crowd) costs one JSON.stringify and at most one
 * gzip per cache entry, not one per visitor.
 */
export interface Serialized {
  readonly json: string;
  gzip(): Promise<Uint8Array<ArrayBuffer>>;
}

/** `reply`'s envelope, serialized now; its gzip made when a visitor first accepts one. */
export function serialized<E extends Endpoint>(_endpoint: E, data: ResponseOf<E>): Serialized {
  const json = JSON.stringify({ success: true, data: data as unknown });
  let zipped: Promise<Uint8Array<ArrayBuffer>> | undefined;
  return { json, gzip: () => (zipped ??= gzipped(json).then((b) => new Uint8Array(b))) };
}

/**
 * True when the request's Accept-Encoding takes gzip: `gzip` or `x-gzip` named without q=0,
 * or else `*` without q=0 (RFC 9110 12.5.3). A q that is not a number refuses.
 */
export function acceptsGzip(accept: string | undefined): boolean {
  if (!accept) return false;
  let any = false;
  for (const part of accept.split(",")) {
    const [name = "", ...params] = part.split(";");
    const coding = name.trim().toLowerCase();
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    const takes = q === undefined || Number(q.slice(2)) > 0;
    if (coding === "gzip" || coding === "x-gzip") return takes;
    if (coding === "*") any = takes;
  }
  return any;
}

/**
 * Sends a serialized answer, gzipped when the visitor accepts it and it is worth it: large
 * enough, and shared (`gzip: false` for an answer few will get, such as one session's).
 */
export async function sendSerialized(c: Context, answer: Serialized, opts: { gzip?: boolean } = {}) {
  // Vary is set here: the same URL is answered gzipped or plain by the request's Accept-Encoding.
  const headers: Record<string, string> = { "Content-Type": "application/json", Vary: "Accept-Encoding" };
  const worth = opts.gzip !== false && answer.json.length >= GZIP_FROM_BYTES;
  if (!worth || !acceptsGzip(c.req.header("accept-encoding"))) return c.body(answer.json, 200, headers);
  return c.body(await answer.gzip(), 200, { ...headers, "Content-Encoding": "gzip" });
}
