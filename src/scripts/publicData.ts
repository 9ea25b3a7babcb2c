import { pathOf } from "../api/endpoint.ts";
import { readInlineConfig } from "../stores/inlineConfig.ts";

/**
 * GET of a public call for the painting scripts: plain fetch, the session cookie along (the
 * answer says whether a signed-in member should go to the signed-in page), the `data` of the
 * success envelope or a throw. Stores use call() instead; these scripts stay small.
 */
export async function getPublic<T>(path: string, params: Record<string, string>): Promise<T> {
  const base = readInlineConfig(document)?.apiBase || location.origin;
  const url = base + pathOf({ path }, params);
  const res = await (takeEarly(url) ??
    fetch(url, { credentials: "include", headers: { accept: "application/json" } }));
  const body = (await res.json()) as { success?: boolean; data?: unknown };
  if (!res.ok || body.success !== true) throw new Error(`GET ${path} answered ${res.status}`);
  return body.data as T;
}

declare global {
  interface Window {
    /** The request src/components/EarlyRecord.astro started before this script arrived. */
    portalEarlyRecord?: { url: string; response: Promise<Response> } | undefined;
  }
}

/** The early request for this URL, once (a response body is read once). */
function takeEarly(url: string): Promise<Response> | undefined {
  const early = window.portalEarlyRecord;
  if (early?.url !== url) return undefined;
  window.portalEarlyRecord = undefined;
  return early.response;
}

/**
 * The record's identifier: the last segment of the address, without the punctuation a link
 * copied out of a sentence often drags along (no token contains it).
 */
export function lastSegment(pathname: string): string {
  try {
    return decodeURIComponent(pathname.replace(/\/+$/, "").split("/").pop() ?? "").replace(
      /[.,;:)\]>'"]+$/,
      "",
    );
  } catch {
    return "";
  }
}
