import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Deps } from "../deps.ts";
import { errorResponse } from "../http/errors.ts";
import { jsonBody } from "../http/input.ts";
import { ingestPush } from "../services/ingest.ts";
import { PushSchema } from "../services/pushSchema.ts";

const PUSH_BODY_LIMIT = 256 * 1024;

/** Device data ingestion: devices (and the demo simulator) post readings with their key. */
export function devicePushRoutes({ db, now }: Deps) {
  return new Hono().post(
    "/push",
    bodyLimit({
      maxSize: PUSH_BODY_LIMIT,
      onError: (c) =>
        errorResponse(c, 413, [{ field: null, message: "The push is too large (256 KB at most)." }]),
    }),
    async (c) => {
      const auth = c.req.header("authorization") ?? "";
      const key = /^Device\s+(\S+)$/.exec(auth)?.[1] ?? null;
      const push = await jsonBody(c, PushSchema);
      const result = await ingestPush(db, key, push, now());
      return c.json({ success: true, data: result });
    },
  );
}
