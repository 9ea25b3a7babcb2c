import { vi } from "vitest";
import * as z from "zod/mini";
import type { RuntimeConfig } from "../../src/api/config.ts";
import type { Endpoint, ResponseOf } from "../../src/api/endpoint.ts";
import type { FieldError } from "../../src/api/errors.ts";
import { setNavigation, type Navigation } from "../../src/stores/navigate.ts";

/** The hosts the stores are configured with in these tests (none is this page's origin). */
export const CONFIG: RuntimeConfig = {
  apiBase: "https://api.test",
  webBase: "",
  accountBase: "https://account.test",
  wsBase: "",
};
export const PAGE_ORIGIN = "https://web.test";

/** What reached the fake server: method, full URL, how the input travelled, and its fields. */
export interface Sent {
  method: string;
  url: string;
  as: "json" | "form" | "query" | "none";
  fields: Record<string, unknown>;
}

/** A handler's answer: `data` of a success, or a failure with the spec's error list. */
export type Answer<E extends Endpoint> = ResponseOf<E> | { status: number; errors: FieldError[] };

type Reply = (fields: Record<string, unknown>) => Promise<Response>;
type Respond<E extends Endpoint> = (fields: Record<string, unknown>) => Answer<E> | Promise<Answer<E>>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

async function read(request: Request): Promise<Pick<Sent, "as" | "fields">> {
  const text = await request.text();
  const type = request.headers.get("content-type") ?? "";
  const { search } = new URL(request.url);
  if (type.includes("application/json")) return { as: "json", fields: JSON.parse(text) as Sent["fields"] };
  if (type.includes("application/x-www-form-urlencoded"))
    return { as: "form", fields: Object.fromEntries(new URLSearchParams(text)) };
  return { as: search ? "query" : "none", fields: Object.fromEntries(new URLSearchParams(search)) };
}

/**
 * A stand-in for the portal at the ky boundary (globalThis.fetch). Each answer is checked
 * against the endpoint's response contract, so a stub cannot drift from what the server
 * promises; an unknown call answers 404 the way the API does.
 */
export function fakeApi() {
  const handlers: { matches: (method: string, url: string) => boolean; reply: Reply }[] = [];
  const sent: Sent[] = [];
  const fetch = vi.fn(async (input: Request | string | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), PAGE_ORIGIN), init);
    const url = new URL(request.url);
    if (url.pathname === "/runtime-config.json") return json(200, CONFIG);
    const got = await read(request);
    sent.push({ method: request.method, url: url.origin + url.pathname, ...got });
    const handler = handlers.find((h) => h.matches(request.method, url.origin + url.pathname));
    return handler
      ? handler.reply(got.fields)
      : json(404, { success: false, data: [{ field: null, message: "Not found." }] });
  });
  vi.stubGlobal("fetch", fetch);
  /** Whether a request is a call of the endpoint (`:params` match any one segment). */
  const isCallOf = (e: Endpoint) => {
    const address = (CONFIG[`${e.host}Base`] || PAGE_ORIGIN) + e.path;
    const escaped = address.replace(/[.?*+^$()[\]{}|\\]/g, "\\$&").replace(/:[A-Za-z]+/g, "[^/]+");
    const pattern = new RegExp(`^${escaped}$`);
    return (method: string, to: string) => method === e.method.toUpperCase() && pattern.test(to);
  };
  return {
    sent,
    /** Answers every call of the endpoint; a function answer sees the fields sent. */
    on<E extends Endpoint>(endpoint: E, answer: Answer<E> | Respond<E>) {
      // A response schema never describes a function, so a function is a handler.
      const respond = (typeof answer === "function" ? answer : () => answer) as Respond<E>;
      const reply: Reply = async (fields) => {
        const a = await respond(fields);
        if (a && typeof a === "object" && "errors" in a && "status" in a)
          return json(a.status, { success: false, data: a.errors });
        return json(200, { success: true, data: z.parse(endpoint.response, a) });
      };
      handlers.unshift({ matches: isCallOf(endpoint), reply });
    },
    /** The calls sent to one endpoint. */
    calls: (endpoint: Endpoint) => sent.filter((s) => isCallOf(endpoint)(s.method, s.url)),
  };
}

/** A browser location that records where the stores send it instead of going there. */
export function fakeNavigation(path: string) {
  const url = new URL(path, PAGE_ORIGIN);
  const visits: string[] = [];
  const navigation: Navigation = {
    here: () => ({ origin: url.origin, pathname: url.pathname, search: url.search }),
    assign: (to) => void visits.push(to),
    replace: (to) => void visits.push(`replace ${to}`),
    reload: () => void visits.push("reload"),
  };
  setNavigation(navigation);
  return visits;
}

/** A promise to answer later, to see what a store shows while a call is out. */
export function later<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
