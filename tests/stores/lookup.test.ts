import { ENTER_CONTACT, ENTER_NUMBER } from "../../src/domain/lookup.ts";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { searchOrdersAndQuotes } from "../../src/api/lookup.ts";
import { RECORD_NOT_FOUND } from "../../src/domain/lookup.ts";
import { $lookup, findRecord } from "../../src/stores/lookup.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { fakeApi, fakeNavigation, later } from "./fakeApi.ts";

const NOT_FOUND = [{ field: null, message: RECORD_NOT_FOUND }];
const TOO_MANY = "Too many attempts. Try again in 15 minutes.";
const QUOTE_TOKEN = "9f86d081884c7d659a2feaa0c55ad015";

let api: ReturnType<typeof fakeApi>;
let visits: string[];
beforeEach(() => {
  api = fakeApi();
  visits = fakeNavigation("/p/order-quote/search");
  $lookup.set({ busy: false, errors: [] });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("quote and order lookup", () => {
  test("asks with the number and contact name and opens the order it finds", async () => {
    api.on(searchOrdersAndQuotes, { resourceUri: "ORD-5003-abc_DEF" });
    await findRecord("ORD-5003", "Dana Whitfield");
    expect(api.calls(searchOrdersAndQuotes)).toEqual([
      {
        method: "GET",
        url: "https://api.test/api/v1/orders-and-quotes/public/search",
        as: "query",
        fields: { id: "ORD-5003", contact: "Dana Whitfield" },
      },
    ]);
    expect(visits).toEqual(["/p/order/ORD-5003-abc_DEF"]);
    expect($lookup.get()).toEqual({ busy: false, errors: [] });
  });

  test("opens the quote's page when the identifier it finds holds no 'ord'", async () => {
    api.on(searchOrdersAndQuotes, { resourceUri: QUOTE_TOKEN });
    await findRecord("QUO-1001", "dana  whitfield");
    expect(visits).toEqual([`/p/quote/${QUOTE_TOKEN}`]);
  });

  test("says 'Record not found.' for a wrong number or name and stays on the page", async () => {
    api.on(searchOrdersAndQuotes, { status: 404, errors: NOT_FOUND });
    await findRecord("ORD-5003", "Someone Else");
    expect($lookup.get()).toEqual({ busy: false, errors: NOT_FOUND });
    expect(visits).toEqual([]);
  });

  test.each([
    ["a server failure", () => ({ status: 500, errors: [{ field: null, message: "Unexpected error." }] })],
    [
      "a refused input",
      () => ({ status: 400, errors: [{ field: "id", message: "The number is too long." }] }),
    ],
    [
      "no answer at all",
      () => {
        throw new TypeError("Failed to fetch");
      },
    ],
  ])("says 'Record not found.' after %s", async (_, answer) => {
    api.on(searchOrdersAndQuotes, answer);
    await findRecord("ORD-5003", "Dana Whitfield");
    expect($lookup.get().errors).toEqual(NOT_FOUND);
  });

  test("shows the rate limit's own message, which says how long to wait", async () => {
    api.on(searchOrdersAndQuotes, { status: 429, errors: [{ field: null, message: TOO_MANY }] });
    await findRecord("ORD-5003", "Dana Whitfield");
    expect($lookup.get().errors).toEqual([{ field: null, message: TOO_MANY }]);
  });

  test("is busy while it asks, and a second press meanwhile sends nothing", async () => {
    const answer = later<{ resourceUri: string }>();
    api.on(searchOrdersAndQuotes, () => answer.promise);
    const first = findRecord("ORD-5003", "Dana Whitfield");
    await vi.waitFor(() => expect($lookup.get().busy).toBe(true));
    await findRecord("ORD-5003", "Dana Whitfield");
    answer.resolve({ resourceUri: "ORD-5003-abc" });
    await first;
    expect(api.calls(searchOrdersAndQuotes)).toHaveLength(1);
    expect($lookup.get().busy).toBe(false);
  });

  test.each([
    ["", "Dana Whitfield", [{ field: "id", message: ENTER_NUMBER }]],
    ["ORD-5003", "   ", [{ field: "contact", message: ENTER_CONTACT }]],
  ])("asks for the empty field of (%j, %j) without spending a try", async (id, contact, asked) => {
    await findRecord(id, contact);
    expect($lookup.get().errors).toEqual(asked);
    expect(api.calls(searchOrdersAndQuotes)).toEqual([]);
  });
});
