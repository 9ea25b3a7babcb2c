// Kept apart from config.ts (a store) so that a page's small painting script can read the
// configuration the server wrote into the page without loading the store library.
import type { RuntimeConfig } from "../api/config.ts";
import { CONFIG_ELEMENT_ID } from "../domain/runtimeConfig.ts";

export const SAME_ORIGIN: RuntimeConfig = { apiBase: "", webBase: "", accountBase: "", wsBase: "" };

/** Reads the configuration the server wrote into the page; null on a static host that did not. */
export function readInlineConfig(doc: Document): RuntimeConfig | null {
  const text = doc.getElementById(CONFIG_ELEMENT_ID)?.textContent ?? "";
  try {
    const parsed = JSON.parse(text) as Partial<RuntimeConfig>;
    return typeof parsed.apiBase === "string" ? { ...SAME_ORIGIN, ...parsed } : null;
  } catch {
    return null;
  }
}
