import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import * as z from "zod/mini";
import { checkValidationToken } from "../../src/api/accounts.ts";
import { endpoint } from "../../src/api/endpoint.ts";
import { patchSettings } from "../../src/api/session.ts";
import { formStore, formTask } from "../../src/stores/formTask.ts";
import { call, RequestFailure } from "../../src/stores/http.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { fakeApi, fakeNavigation, later } from "./fakeApi.ts";

// An endpoint of the web host (same origin) with a path parameter, as later issues add them.
const publicOrder = endpoint({
  method: "get",
  path: "/api/v1/orders/public/:id",
  host: "web",
  body: "none",
  request: undefined,
  response: z.object({ id: z.number() }),
  summary: "A test endpoint.",
});

let api: ReturnType<typeof fakeApi>;
beforeEach(() => {
  api = fakeApi();
  fakeNavigation("/s/settings");
});
afterEach(() => {
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("call", () => {
  test("sends JSON to the configured API host and returns the answer's data", async () => {
    api.on(patchSettings, { temperatureScale: "F", timezone: "Europe/Berlin" });
    const data = await call(patchSettings, { temperatureScale: "F", timezone: "Europe/Berlin" });
    expect(api.sent).toEqual([
      {
        method: "PATCH",
        url: "https://api.test/api/v1/session/settings",
        as: "json",
        fields: { temperatureScale: "F", timezone: "Europe/Berlin" },
      },
    ]);
    expect(data).toEqual({ temperatureScale: "F", timezone: "Europe/Berlin" });
  });

  test("puts a query endpoint's input in the query string", async () => {
    api.on(checkValidationToken, { email: "fresh@example.com" });
    await call(checkValidationToken, { token: "a b&c" });
    expect(api.sent).toEqual([
      {
        method: "GET",
        url: "https://account.test/user/validate/check",
        as: "query",
        fields: { token: "a b&c" },
      },
    ]);
  });

  test("fills path parameters, and sends web calls to this page's origin when no host is configured", async () => {
    api.on(publicOrder, { id: 7 });
    expect(await call(publicOrder, undefined, { id: "7/../x" })).toEqual({ id: 7 });
    expect(api.sent[0]).toMatchObject({
      url: "https://web.test/api/v1/orders/public/7%2F..%2Fx",
      as: "none",
    });
  });

  test("turns the spec's error list into a RequestFailure with that list", async () => {
    const errors = [{ field: "timezone", message: "Unknown time zone." }];
    api.on(patchSettings, { status: 400, errors });
    const failure = await call(patchSettings, { timezone: "Mars/Olympus" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RequestFailure);
    expect((failure as RequestFailure).errors).toEqual(errors);
    expect((failure as RequestFailure).message).toBe("Unknown time zone.");
  });
});

describe("formTask", () => {
  test("is busy while the task runs, clears old errors first, and is not busy afterwards", async () => {
    const $form = formStore();
    $form.setKey("errors", [{ field: null, message: "Old." }]);
    const step = later<void>();
    const done = formTask($form, () => step.promise);
    expect($form.get()).toEqual({ busy: true, errors: [] });
    step.resolve();
    expect(await done).toBe(true);
    expect($form.get()).toEqual({ busy: false, errors: [] });
  });

  test("shows a failure's messages and resolves false", async () => {
    const $form = formStore();
    const failed = await formTask($form, () =>
      Promise.reject(new RequestFailure([{ field: "x", message: "No." }])),
    );
    expect(failed).toBe(false);
    expect($form.get()).toEqual({ busy: false, errors: [{ field: "x", message: "No." }] });
  });

  test("runs no second task while one is out", async () => {
    const $form = formStore();
    const step = later<void>();
    const second = vi.fn(() => Promise.resolve());
    const first = formTask($form, () => step.promise);
    expect(await formTask($form, second)).toBe(false);
    step.resolve();
    await first;
    expect(second).not.toHaveBeenCalled();
  });
});
