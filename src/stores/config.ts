import { atom, onMount } from "nanostores";
import type { RuntimeConfig } from "../api/config.ts";
import { readInlineConfig, SAME_ORIGIN } from "./inlineConfig.ts";

export { readInlineConfig };

/** Where the API, web app, account and websocket hosts live; loads itself when first used. */
export const $config = atom<RuntimeConfig>(SAME_ORIGIN);
let loading: Promise<RuntimeConfig> | null = null;

onMount($config, () => {
  void loadConfig();
});

/**
 * The runtime configuration: inline in the page when the portal server served it (no
 * round trip), otherwise fetched once from /runtime-config.json, else same-origin.
 */
export function loadConfig(): Promise<RuntimeConfig> {
  loading ??= (async () => {
    const inline = typeof document === "undefined" ? null : readInlineConfig(document);
    const config =
      inline ??
      (await fetch("/runtime-config.json")
        .then((r) => (r.ok ? (r.json() as Promise<RuntimeConfig>) : SAME_ORIGIN))
        .catch(() => SAME_ORIGIN));
    $config.set(config);
    return config;
  })();
  return loading;
}
