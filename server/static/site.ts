import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { Context } from "hono";
import { CONFIG_PLACEHOLDER, injectConfig, inlineScriptHashes, pageCsp } from "./html.ts";
import { shellFor } from "./shells.ts";

interface Variant {
  body: Uint8Array;
  encoding: "br" | "gzip" | null;
}
interface Entry {
  type: string;
  etag: string;
  cache: string;
  csp: string | null;
  variants: Variant[];
}
export interface Site {
  handler: (c: Context) => Response | Promise<Response>;
  /** The 404 page, for a path the app refuses to show (a developer page to another computer). */
  notFound: (c: Context) => Response | Promise<Response>;
  has(path: string): boolean;
}

/** The request's path as the site looks it up (percent-decoded; "/404" when it cannot be). */
export function sitePath(c: Context): string {
  try {
    return decodeURIComponent(new URL(c.req.url).pathname);
  } catch {
    return "/404";
  }
}

/** Pages built for the portal's developers, not its visitors: the UI kit (src/pages/ui-kit.astro). */
export const isDevPage = (path: string) => /^\/ui-kit(\/(index\.html)?)?$/.test(path);

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".webmanifest": "application/manifest+json",
};
const IMMUTABLE = "public, max-age=31536000, immutable";
const HTML_CACHE = "public, max-age=60, must-revalidate";
const ASSET_CACHE = "public, max-age=3600";

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

const etagOf = (body: Uint8Array) => `"${createHash("sha1").update(body).digest("base64url")}"`;

function htmlEntry(file: string, config: object, connect: string[]): Entry {
  const raw = readFileSync(file, "utf8");
  const html = raw.includes(CONFIG_PLACEHOLDER) ? injectConfig(raw, config) : raw;
  const body = Buffer.from(html);
  return {
    type: TYPES[".html"]!,
    etag: etagOf(body),
    cache: HTML_CACHE,
    csp: pageCsp(inlineScriptHashes(html), connect),
    // Compressed once at start: the config differs per deployment, so HTML is not precompressed.
    variants: [
      { body: brotliCompressSync(body), encoding: "br" },
      { body: gzipSync(body, { level: 9 }), encoding: "gzip" },
      { body, encoding: null },
    ],
  };
}

function assetEntry(file: string, rel: string): Entry {
  const body = readFileSync(file);
  const variants: Variant[] = [];
  if (existsSync(`${file}.br`)) variants.push({ body: readFileSync(`${file}.br`), encoding: "br" });
  if (existsSync(`${file}.gz`)) variants.push({ body: readFileSync(`${file}.gz`), encoding: "gzip" });
  variants.push({ body, encoding: null });
  const type = TYPES[extname(file)] ?? "application/octet-stream";
  return {
    type,
    etag: etagOf(body),
    cache: rel.startsWith("/_astro/") ? IMMUTABLE : ASSET_CACHE,
    csp: null,
    variants,
  };
}

/** Loads dist/ into memory: HTML with the runtime config and its CSP, assets with their encodings. */
export function loadSite(distDir: string, config: object, connect: string[]): Site {
  const entries = new Map<string, Entry>();
  for (const file of walk(distDir)) {
    if (file.endsWith(".br") || file.endsWith(".gz")) continue;
    const rel = "/" + relative(distDir, file).split(sep).join("/");
    entries.set(rel, extname(file) === ".html" ? htmlEntry(file, config, connect) : assetEntry(file, rel));
  }
  const resolve = (path: string): { entry: Entry; status: 200 | 404 } | null => {
    const candidates = [path, `${path.replace(/\/$/, "")}/index.html`];
    for (const p of candidates) {
      const entry = entries.get(p);
      if (entry) return { entry, status: 200 };
    }
    const shell = shellFor(path);
    const entry = shell ? entries.get(shell) : undefined;
    if (entry) return { entry, status: 200 };
    const notFound = entries.get("/404.html");
    return notFound ? { entry: notFound, status: 404 } : null;
  };
  return {
    has: (path) => entries.has(path),
    handler: (c) => {
      const path = sitePath(c);
      const found = path.includes("..") ? null : resolve(path);
      if (!found) return c.notFound();
      return send(c, found.entry, found.status);
    },
    notFound: (c) => {
      const page = entries.get("/404.html");
      return page ? send(c, page, 404) : c.notFound();
    },
  };
}

function send(c: Context, entry: Entry, status: 200 | 404): Response {
  const headers = new Headers({
    "Content-Type": entry.type,
    "Cache-Control": status === 404 ? "no-cache" : entry.cache,
    ETag: entry.etag,
    Vary: "Accept-Encoding",
  });
  if (entry.csp) headers.set("Content-Security-Policy", entry.csp);
  if (status === 200 && c.req.header("if-none-match") === entry.etag)
    return new Response(null, { status: 304, headers });
  const accept = c.req.header("accept-encoding") ?? "";
  const variant =
    entry.variants.find((v) => v.encoding !== null && new RegExp(`\\b${v.encoding}\\b`).test(accept)) ??
    entry.variants[entry.variants.length - 1]!;
  if (variant.encoding) headers.set("Content-Encoding", variant.encoding);
  headers.set("Content-Length", String(variant.body.byteLength));
  const body = c.req.method === "HEAD" ? null : variant.body;
  return new Response(body as BodyInit | null, { status, headers });
}
