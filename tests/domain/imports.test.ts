import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";

// The direction of dependencies (server/README.md, src/README.md): domain imports nothing of ours, api only
// domain and zod, the server never the browser's stores or islands, islands never the
// server, and no two server folders import each other.
const ROOT = resolve(import.meta.dirname, "../..");
const CODE = /\.(ts|tsx|astro)$/;

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return files(path);
    return CODE.test(name) ? [path] : [];
  });
}

/** Every module a file imports: `{from: "server/http/auth.ts", to: "src/domain/roles.ts" | "zod"}`. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const specifiers = [
    ...text.matchAll(/(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g),
  ];
  return specifiers
    .map((m) => (m[1] ?? m[2])!)
    .map((s) => (s.startsWith(".") ? relative(ROOT, resolve(ROOT, dirname(file), s)) : s));
}

const ours = (target: string) => /^(src|server|islands|scripts|tests)\//.test(target);
const edges = (dir: string) => files(dir).flatMap((from) => importsOf(from).map((to) => ({ from, to })));

/** The server folder a path lies in (server/<folder>/...), or null for server/*.ts and the rest. */
function serverFolder(path: string): string | null {
  const parts = path.split("/");
  return parts[0] === "server" && parts.length > 2 ? parts[1]! : null;
}

/** Imports from one server folder into another. */
const serverEdges = () =>
  edges("server").flatMap((e) => {
    const a = serverFolder(e.from);
    const b = serverFolder(e.to);
    return a && b && a !== b ? [{ ...e, a, b }] : [];
  });

/**
 * Where each server folder may reach: routes on top, then flows (work spanning several tables
 * or services), core and db at the bottom. Routes → flows → data and services, never back.
 */
const ALLOWED: Record<string, readonly string[]> = {
  routes: ["flows", "http", "data", "services", "core"],
  flows: ["http", "data", "services", "core", "db"],
  http: ["data", "core", "db"],
  data: ["db", "core"],
  services: ["core"],
  seed: ["data", "services", "db", "core"],
  static: ["core"],
  core: [],
  db: [],
};

describe("import direction", () => {
  test("src/domain imports nothing of ours outside src/domain", () => {
    const bad = edges("src/domain").filter((e) => ours(e.to) && !e.to.startsWith("src/domain/"));
    expect(bad).toEqual([]);
  });

  test("src/api imports only src/domain, itself and zod", () => {
    const bad = edges("src/api").filter(
      (e) => !(e.to.startsWith("src/domain/") || e.to.startsWith("src/api/") || /^zod(\/|$)/.test(e.to)),
    );
    expect(bad).toEqual([]);
  });

  test("the server never imports the browser's stores or islands", () => {
    const bad = edges("server").filter((e) => e.to.startsWith("src/stores/") || e.to.startsWith("islands/"));
    expect(bad).toEqual([]);
  });

  test("islands and stores never import the server", () => {
    const bad = [...edges("islands"), ...edges("src/stores")].filter((e) => e.to.startsWith("server/"));
    expect(bad).toEqual([]);
  });

  test("no two server folders import each other", () => {
    const pairs = new Set(serverEdges().map((e) => `${e.a} -> ${e.b}`));
    const mutual = [...pairs].filter((p) => {
      const [a, b] = p.split(" -> ");
      return pairs.has(`${b} -> ${a}`);
    });
    expect(mutual).toEqual([]);
  });

  test("a flow knows no Hono: it takes deps and plain values, and no route file is anything but routes", () => {
    const hono = edges("server/flows").filter((e) => /^hono(\/|$)|^@hono\//.test(e.to));
    expect(hono).toEqual([]);
    const routeFiles = files("server/routes").filter(
      (f) => !/\.(get|post|put|patch|delete)\(/.test(readFileSync(join(ROOT, f), "utf8")),
    );
    expect(routeFiles).toEqual([]);
  });

  test("each server folder imports only the folders server/README.md allows it", () => {
    const bad = serverEdges()
      .filter((e) => !(ALLOWED[e.a] ?? []).includes(e.b))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(bad).toEqual([]);
  });
});
