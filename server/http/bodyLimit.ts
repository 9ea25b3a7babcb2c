import { bodyLimit } from "hono/body-limit";
import { errorResponse } from "./errors.ts";

export const BODY_TOO_LARGE = "The request body is too large.";

/**
 * Refuses a body over `maxSize` bytes with a 413 that closes the connection and says so:
 * the rest of the body was never read, so the server cannot keep the connection, and a
 * client told "keep-alive" would send its next request into a socket about to close.
 */
export function limitBodyTo(maxSize: number, message = BODY_TOO_LARGE) {
  return bodyLimit({
    maxSize,
    onError: (c) => {
      c.header("Connection", "close");
      return errorResponse(c, 413, [{ field: null, message }]);
    },
  });
}
