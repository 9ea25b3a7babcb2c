import type { FieldError } from "../../src/api/errors.ts";

export type { FieldError } from "../../src/api/errors.ts";

/** The statuses the portal answers failures with (a new one is added here on purpose). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 421 | 429 | 500 | 503;

export const UNEXPECTED = "Unexpected error.";
export const NOT_FOUND = "Not found.";

/**
 * An expected failure with a status and the messages to show; never a 500. Thrown from data,
 * services and http alike; the app's error handler turns it into the spec's error list.
 */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly errors: FieldError[];
  constructor(status: ErrorStatus, errors: FieldError[] | string) {
    const list = typeof errors === "string" ? [{ field: null, message: errors }] : errors;
    super(list[0]?.message ?? "Error");
    this.status = status;
    this.errors = list;
  }
}
