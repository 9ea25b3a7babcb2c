import { pathOf } from "../api/endpoint.ts";
import { readInlineConfig } from "../stores/inlineConfig.ts";

/**
 * GET of a public call for the painting scripts: plain fetch, the session cookie along (the
 * answer says whether a signed-in member should go to the signed-in page), the `data` of the
 * success envelope or a throw. Stores use call() instead; these scripts stay small.
 */
export async function getPublic<T>(path: string, params: Record<string, string>): Promise<T> {
  const base = readInlineConfig(document)?.apiBase || location.origin;
  const res = await fetch(base + pathOf({ path }, params), {
    credentials: "include",
    headers: { accept: "application/json" },
  });
  const body = (await res.json()) as { success?: boolean; data?: unknown };
  if (!res.ok || body.success !== true) throw new Error(`GET ${path} answered ${res.status}`);
  return body.data as T;
}

/** The record's identifier: the last segment of the address. */
export function lastSegment(pathname: string): string {
  try {
    return decodeURIComponent(pathname.replace(/\/+$/, "").split("/").pop() ?? "");
  } catch {
    return "";
  }
}
