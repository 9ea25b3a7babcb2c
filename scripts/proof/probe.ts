/**
 * One request as a client saw it, finer than http.ts's `send`: whether a failure was a clean
 * refusal (nothing listening), a connection dropped before any answer, a timeout, or an
 * answer cut off after its status (a truncated response: the one thing a drain must prevent).
 */
export type Failure = "refused" | "dropped" | "timeout" | "truncated" | "other";

export interface Sample {
  /** What was asked ('push', 'order', ...), for the tables. */
  what: string;
  /** When it was sent and when it ended (ms since the epoch). */
  began: number;
  ended: number;
  /** The HTTP status (0 when none came). */
  status: number;
  failure: Failure | null;
  retryAfter: string | null;
  text: string;
}

/** The codes Node and undici give a connection the other side closed or reset. */
const DROPPED = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);

function codeOf(e: unknown, depth = 0): string | undefined {
  if (!(e instanceof Error) || depth > 3) return undefined;
  const code = (e as { code?: unknown }).code;
  return typeof code === "string" ? code : codeOf(e.cause, depth + 1);
}

/** Why a fetch failed before an answer came. */
export function failureOf(e: unknown): Failure {
  if (e instanceof Error && e.name === "TimeoutError") return "timeout";
  const code = codeOf(e);
  if (code === "ECONNREFUSED") return "refused";
  return code && DROPPED.has(code) ? "dropped" : "other";
}

/** Sends one request and reads the whole body; never throws. A 2xx JSON answer must parse. */
export async function probe(
  what: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Sample> {
  const began = Date.now();
  const sample = (
    status: number,
    failure: Failure | null,
    text: string,
    retryAfter: string | null = null,
  ) => ({
    what,
    began,
    ended: Date.now(),
    status,
    failure,
    retryAfter,
    text,
  });
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    return sample(0, failureOf(e), e instanceof Error ? `${e.message} (${codeOf(e) ?? e.name})` : String(e));
  }
  const retryAfter = res.headers.get("retry-after");
  try {
    const text = await res.text();
    if (res.ok && res.headers.get("content-type")?.includes("json")) JSON.parse(text);
    return sample(res.status, null, text, retryAfter);
  } catch (e) {
    return sample(res.status, "truncated", e instanceof Error ? e.message : String(e), retryAfter);
  }
}

/** The p-th percentile (0-100) of the samples' durations, in ms. */
export function percentile(samples: Sample[], p: number): number {
  const ms = samples.map((s) => s.ended - s.began).sort((a, b) => a - b);
  return ms[Math.min(ms.length - 1, Math.floor((ms.length * p) / 100))] ?? 0;
}
