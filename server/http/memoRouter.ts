import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

/** Paths remembered, at most: a scanner's random paths only push older ones out. */
const REMEMBERED = 2000;
/** Longer paths are matched every time: they are not the ones asked for thousands of times. */
const LONGEST = 256;

/**
 * Hono's router with its answers remembered per method and path. The spec's routes have a
 * static segment beside a parameter ("/orders/public/:ref" and "/orders/:orderId"), which
 * Hono's RegExpRouter refuses, so SmartRouter falls back to its TrieRouter, whose search
 * walked every wildcard and parameter node on each request: 5-7 % of a cached public read's
 * CPU here (profiled 2026-11-28). A match depends only on the method, the path and the routes
 * (added before the first request; adding one forgets every answer), and Hono only reads it.
 */
export function memoRouter<T>(inner: Router<T> = defaultRouter<T>()): Router<T> {
  const answers = new Map<string, Result<T>>();
  return {
    name: `memo(${inner.name})`,
    add(method, path, handler) {
      answers.clear();
      inner.add(method, path, handler);
    },
    match(method, path) {
      if (path.length > LONGEST) return inner.match(method, path);
      const key = `${method} ${path}`;
      let result = answers.get(key);
      if (!result) {
        result = inner.match(method, path);
        if (answers.size >= REMEMBERED) answers.delete(answers.keys().next().value!);
        answers.set(key, result);
      }
      return result;
    },
  };
}

/** What `new Hono()` uses. */
function defaultRouter<T>(): Router<T> {
  return new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] });
}
