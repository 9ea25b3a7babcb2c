import ky, { HTTPError, type KyInstance, type Options } from "ky";
import type { RuntimeConfig } from "../api/config.ts";
import { pathOf, type Endpoint, type RequestOf, type ResponseOf } from "../api/endpoint.ts";
import type { FieldError } from "../api/errors.ts";
import { loadConfig } from "./config.ts";
import { here } from "./navigate.ts";

/**
 * A failed call with the server's field/message list (or the error's own message). `status`
 * is the HTTP status when the server answered, undefined when no answer came (network,
 * timeout): a payment retried after no answer must keep its idempotency key.
 */
export class RequestFailure extends Error {
  readonly errors: FieldError[];
  readonly status: number | undefined;
  constructor(errors: FieldError[], status?: number) {
    super(errors[0]?.message ?? "Request failed");
    this.errors = errors;
    this.status = status;
  }
}

/** Any failure as the spec's error list: the server's list, else the error's own message. */
export function errorsOf(e: unknown): FieldError[] {
  if (e instanceof RequestFailure) return e.errors;
  return [{ field: null, message: e instanceof Error ? e.message : String(e) }];
}

const BASE: Record<Endpoint["host"], keyof RuntimeConfig> = {
  api: "apiBase",
  web: "webBase",
  account: "accountBase",
};
const clients = new Map<Endpoint["host"], KyInstance>();

/** The one ky instance per host; the session cookie goes with every call. */
async function client(host: Endpoint["host"]): Promise<KyInstance> {
  const existing = clients.get(host);
  if (existing) return existing;
  const config = await loadConfig();
  const instance = ky.create({
    prefix: config[BASE[host]] || here().origin,
    credentials: "include",
    retry: 0,
    timeout: 30_000,
  });
  clients.set(host, instance);
  return instance;
}

type Params = Record<string, string | number>;
/** The input is required exactly when the endpoint has a request schema. */
type Args<E extends Endpoint> =
  RequestOf<E> extends undefined
    ? [input?: undefined, params?: Params]
    : [input: RequestOf<E>, params?: Params];

/** Form and query fields as text; absent fields are left out. */
function fields(input: unknown): URLSearchParams {
  const entries = Object.entries((input ?? {}) as Record<string, unknown>);
  return new URLSearchParams(entries.filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
}

/**
 * A form with a file in it (a Blob value, e.g. the purchase-order file) travels as multipart
 * FormData so the file goes with it; other forms stay form-encoded.
 */
function formBody(input: unknown): URLSearchParams | FormData {
  const entries = Object.entries((input ?? {}) as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (!entries.some(([, v]) => v instanceof Blob)) return fields(input);
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v instanceof Blob ? v : String(v));
  return data;
}

/** How the input travels, as the endpoint says. */
function encode(body: Endpoint["body"], input: unknown): Options {
  switch (body) {
    case "json":
      return { json: input ?? {} };
    case "form":
      return { body: formBody(input) };
    case "query":
      return { searchParams: fields(input) };
    case "none":
      return {};
  }
}

/**
 * The only way stores reach the API: sends `input` to the endpoint's host and path (its
 * `:params` filled) encoded as its contract says, and returns the `data` of the answer.
 * Every failure (an error envelope, a network error, a timeout) is a RequestFailure.
 */
export async function call<E extends Endpoint>(
  endpoint: E,
  ...[input, params]: Args<E>
): Promise<ResponseOf<E>> {
  const api = await client(endpoint.host);
  try {
    const options = { method: endpoint.method, ...encode(endpoint.body, input) };
    const res = await api(pathOf(endpoint, params), options).json<{ success: boolean; data: unknown }>();
    if (!res.success) throw new RequestFailure(res.data as FieldError[], 200);
    return res.data as ResponseOf<E>;
  } catch (e) {
    if (e instanceof RequestFailure) throw e;
    if (e instanceof HTTPError) {
      const list = (e.data as { data?: unknown } | undefined)?.data;
      const errors = Array.isArray(list) ? (list as FieldError[]) : errorsOf(e);
      throw new RequestFailure(errors, e.response.status);
    }
    throw new RequestFailure(errorsOf(e));
  }
}

/**
 * A file the endpoint answers (text/csv, a PDF) rather than the JSON envelope: the raw
 * response of a 2xx, through the same ky instance and cookies as `call`. A refusal is a
 * RequestFailure with the server's field list.
 */
export async function download<E extends Endpoint>(
  endpoint: E,
  ...[input, params]: Args<E>
): Promise<Response> {
  const api = await client(endpoint.host);
  try {
    return await api(pathOf(endpoint, params), { method: endpoint.method, ...encode(endpoint.body, input) });
  } catch (e) {
    if (e instanceof HTTPError) {
      const list = (e.data as { data?: unknown } | undefined)?.data;
      throw new RequestFailure(Array.isArray(list) ? (list as FieldError[]) : [], e.response.status);
    }
    throw new RequestFailure(errorsOf(e));
  }
}
