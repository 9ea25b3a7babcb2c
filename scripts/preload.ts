// Adds <link rel="modulepreload"> for every module a page's own scripts import statically, so
// the browser fetches the whole chain at once instead of one import level per round trip (on
// a 400 ms link, four levels cost 1.6 s before a record page could ask for its record).
// Island code (component-url) is added only for islands hydrated at once (client:load or
// client:only): there the island is the page (the sign-in card, a guest payment, the signed-in
// app), and its chain, level by level, was what a visitor on a slow link waited for. Islands
// hydrated later are left alone: they load after the page has painted.
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";

const dist = process.argv[2] ?? "dist";
const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) =>
    statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)],
  );

/** The static imports of a built module, as site paths ("/_astro/x.js"). */
function importsOf(path: string): string[] {
  const text = readFileSync(join(dist, path), "utf8");
  // `import{a}from"./x.js"` and `import"./x.js"`; `import("./x.js")` (dynamic) is not matched.
  return [...text.matchAll(/\b(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g)].map((m) =>
    posix.normalize(posix.join(posix.dirname(path), m[1]!)),
  );
}

/** The component and renderer code of the islands that hydrate as soon as the page loads. */
function islandCodeAtOnce(html: string): string[] {
  return [...html.matchAll(/<astro-island\b[^>]*>/g)].flatMap(([tag]) => {
    if (!/\bclient="(?:load|only)"/.test(tag)) return [];
    return [...tag.matchAll(/\b(?:component|renderer)-url="(\/[^"]+\.js)"/g)].map((m) => m[1]!);
  });
}

let pages = 0;
for (const file of walk(dist).filter((f) => f.endsWith(".html"))) {
  const html = readFileSync(file, "utf8");
  const entries = [
    ...[...html.matchAll(/<script type="module" src="(\/[^"]+\.js)"/g)].map((m) => m[1]!),
    ...islandCodeAtOnce(html),
  ];
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    queue.push(...importsOf(path));
  }
  const links = [...seen].map((p) => `<link rel="modulepreload" href="${p}">`).join("");
  if (!links || !html.includes("</head>")) continue;
  writeFileSync(file, html.replace("</head>", `${links}</head>`));
  pages++;
}
console.log(`modulepreload hints on ${pages} pages`);
