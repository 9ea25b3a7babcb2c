import { brotliCompressSync, constants, gzipSync } from "node:zlib";

type Sizes = { raw: number; gzip: number; br: number };
const zero = (): Sizes => ({ raw: 0, gzip: 0, br: 0 });
const add = (s: Sizes, body: Buffer) => {
  s.raw += body.length;
  s.gzip += gzipSync(body, { level: 9 }).length;
  s.br += brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
};

/**
 * JS and CSS a page loads before any interaction: its module scripts and their static
 * imports, every island's component and renderer, stylesheets, and inline scripts.
 */
export async function pageWeight(base: string, path: string) {
  const html = await (await fetch(base + path)).text();
  const js = zero(),
    css = zero();
  const seen = new Set<string>();
  const queue: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) queue.push(m[1]!);
  for (const m of html.matchAll(/\b(?:component-url|renderer-url)="([^"]+)"/g)) queue.push(m[1]!);
  for (const m of html.matchAll(
    /<script\b(?![^>]*\bsrc=)(?![^>]*application\/json)[^>]*>([\s\S]*?)<\/script>/g,
  )) {
    add(js, Buffer.from(m[1]!));
    for (const i of m[1]!.matchAll(/(?:import|from)\s*\(?\s*["'](\/[^"']+\.js)["']/g)) queue.push(i[1]!);
  }
  while (queue.length) {
    const url = new URL(queue.shift()!, base + path).href;
    if (seen.has(url)) continue;
    seen.add(url);
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    add(js, body);
    for (const i of body.toString().matchAll(/(?:import|from)\s*["']([^"']+\.js)["']/g))
      queue.push(new URL(i[1]!, url).href);
  }
  for (const m of html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)) {
    add(css, Buffer.from(await (await fetch(new URL(m[1]!, base).href)).arrayBuffer()));
  }
  for (const m of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)) add(css, Buffer.from(m[1]!));
  return { js, css };
}
