import { HTTPError } from "ky";
import { client } from "./api.ts";

export interface FieldError {
  field: string | null;
  message: string;
}

/** A failed call with the server's field/message list (or the error's own message). */
export class RequestFailure extends Error {
  readonly errors: FieldError[];
  constructor(errors: FieldError[]) {
    super(errors[0]?.message ?? "Request failed");
    this.errors = errors;
  }
}

type Host = "api" | "web" | "account";
interface Call {
  method?: "get" | "post" | "patch" | "delete";
  form?: Record<string, string>;
  json?: unknown;
}

/** Calls the portal and returns `data`; any failure becomes a RequestFailure. */
export async function send<T>(host: Host, path: string, call: Call = {}): Promise<T> {
  const api = await client(host);
  try {
    const options = {
      method: call.method ?? "post",
      ...(call.form ? { body: new URLSearchParams(call.form) } : {}),
      ...(call.json === undefined ? {} : { json: call.json }),
    };
    const res = await api(path, options).json<{ success: boolean; data: T }>();
    if (!res.success) throw new RequestFailure(res.data as FieldError[]);
    return res.data;
  } catch (e) {
    if (e instanceof RequestFailure) throw e;
    if (e instanceof HTTPError) {
      const list = (e.data as { data?: unknown } | undefined)?.data;
      if (Array.isArray(list)) throw new RequestFailure(list as FieldError[]);
    }
    throw new RequestFailure([{ field: null, message: (e as Error).message }]);
  }
}

/** The first message for a field, as the spec shows server errors beside fields. */
export function fieldError(errors: readonly FieldError[], field: string): string | undefined {
  return errors.find((e) => e.field === field)?.message;
}

/** Messages that belong to no field of the form. */
export function generalErrors(errors: readonly FieldError[], fields: readonly string[]): string[] {
  return errors.filter((e) => e.field === null || !fields.includes(e.field)).map((e) => e.message);
}
