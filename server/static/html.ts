import { createHash } from "node:crypto";

import { CONFIG_ELEMENT_ID, CONFIG_PLACEHOLDER } from "../../src/domain/runtimeConfig.ts";
export { CONFIG_PLACEHOLDER };

/** Puts the runtime configuration into a page, so islands know the hosts without a round trip. */
export function injectConfig(html: string, config: object): string {
  // JSON inside <script> must not be able to close the element.
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  return html.replace(
    CONFIG_PLACEHOLDER,
    `<script type="application/json" id="${CONFIG_ELEMENT_ID}">${json}</script>`,
  );
}

const sha = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** Hashes of the inline executable scripts of a page, for its Content-Security-Policy. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? "";
    if (/\bsrc\s*=/.test(attrs)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
    if (type && type !== "module" && type !== "text/javascript") continue;
    hashes.push(sha(m[2] ?? ""));
  }
  return [...new Set(hashes)];
}

/** The page's CSP: scripts only from this origin or hashed inline; API hosts for fetches. */
export function pageCsp(scriptHashes: string[], connect: string[]): string {
  const connectSrc = ["'self'", ...connect].join(" ");
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(" ")}`.trim(),
    // React and ECharts set style attributes; CSS cannot run script, so inline styles are allowed.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connectSrc}`,
    `form-action 'self' ${connect.join(" ")}`.trim(),
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
}
