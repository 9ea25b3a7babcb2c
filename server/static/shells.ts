/**
 * Dynamic public and signed-in routes mapped to their static shells in dist/. The same
 * table is written out for nginx in docs/operations.md; keep the two in step.
 * More specific patterns come first.
 */
export const SHELL_ROUTES: readonly { pattern: RegExp; shell: string }[] = [
  { pattern: /^\/p\/quote\/pay-as-guest\/[^/]+\/?$/, shell: "/p/quote/pay-as-guest/_/index.html" },
  { pattern: /^\/p\/order\/pay-as-guest\/[^/]+\/?$/, shell: "/p/order/pay-as-guest/_/index.html" },
  { pattern: /^\/p\/quote\/(?!pay-as-guest\/?$)[^/]+\/?$/, shell: "/p/quote/_/index.html" },
  { pattern: /^\/p\/order\/(?!pay-as-guest\/?$)[^/]+\/?$/, shell: "/p/order/_/index.html" },
  { pattern: /^\/public\/report\/[^/]+\/?$/, shell: "/public/report/_/index.html" },
  { pattern: /^\/p\/device\/[^/]+\/?$/, shell: "/p/device/_/index.html" },
  { pattern: /^\/public\/device\/[^/]+\/?$/, shell: "/public/device/_/index.html" },
  { pattern: /^\/links\/[^/]+\/?$/, shell: "/links/_/index.html" },
  { pattern: /^\/s(\/.*)?$/, shell: "/s/index.html" },
];

/** The shell file for a dynamic route, or null. */
export function shellFor(path: string): string | null {
  return SHELL_ROUTES.find((r) => r.pattern.test(path))?.shell ?? null;
}
