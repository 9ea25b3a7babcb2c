import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../server/core/errors.ts";
import { errorResponse } from "../../server/http/errors.ts";
import { idParam } from "../../server/http/input.ts";
import { ID_RANGE } from "../../src/api/fields.ts";

const app = new Hono()
  .get("/things/:id", (c) => c.json({ id: idParam(c) }))
  .onError((e, c) => (e instanceof ApiError ? errorResponse(c, e.status, e.errors) : c.text("500", 500)));

describe("path ids", () => {
  it.each(["1", "42", "2147483647"])("reads %s as a record id", async (id) => {
    const res = await app.request(`/things/${id}`);
    expect(await res.json()).toEqual({ id: Number(id) });
  });

  it.each(["0", "-1", "2147483648", "99999999999", "1e3", "0x10", "1.5", "abc", "%20"])(
    "refuses %s with the id field's message",
    async (id) => {
      const res = await app.request(`/things/${id}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ success: false, data: [{ field: "id", message: ID_RANGE }] });
    },
  );
});
