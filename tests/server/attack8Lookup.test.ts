import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { LOOKUP_ATTACK } from "../../server/routes/lookup.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

/*
 * Attacks on the lookup and tracking limits (issue 8, helper A8): parallel guesses, address
 * variations, forged X-Forwarded-For, and many clients guessing one record's contact name.
 */

const ORIGIN = "http://localhost";
const SEARCH = "/api/v1/orders-and-quotes/public/search";
const ORDER_REF = `ORD-${DEMO.orderId}-${DEMO.orderValidationId}`;

const peer = (address: string, family = address.includes(":") ? "IPv6" : "IPv4") => ({
  incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: family } },
});

describe("attacks on the lookup's limits", () => {
  const ctx = useTestApp({ seeded: true });
  const ask = async (
    app: ReturnType<typeof buildApp>,
    fields: Record<string, string>,
    address: string,
    headers = {},
  ) =>
    app.request(
      `${ORIGIN}${SEARCH}?${new URLSearchParams(fields)}`,
      { headers: { origin: ORIGIN, ...headers } },
      peer(address),
    );
  const search = (fields: Record<string, string>, address: string, headers = {}) =>
    ask(ctx.app, fields, address, headers);
  const guess = (i: number) => ({ id: "QUO-1001", contact: `Guess ${i}` });

  it("ignores a forged X-Forwarded-For without TRUST_PROXY: every forged hop is the same client", async () => {
    const statuses = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await search(guess(i), "10.9.0.1", { "x-forwarded-for": `203.0.113.${i}` })).status);
    expect(statuses).toEqual([...Array(10).fill(404), 429]);
  });

  it("counts the spellings of one IPv6 /64 as one client", async () => {
    const spellings = [
      "2001:db8:1:2::1",
      "2001:DB8:1:2::2",
      "2001:0db8:0001:0002:0000:0000:0000:0003",
      "[2001:db8:1:2::4]",
      "fe80::1%eth0".replace("fe80::1", "2001:db8:1:2:ffff:ffff:ffff:ffff"),
      "2001:db8:1:2:0:0:0:6",
      "2001:db8:1:2::7",
      "2001:db8:1:2::8",
      "2001:db8:1:2::9",
      "2001:db8:1:2::a",
      "2001:db8:1:2::b",
    ];
    const statuses = [];
    for (const [i, address] of spellings.entries()) statuses.push((await search(guess(i), address)).status);
    expect(statuses).toEqual([...Array(10).fill(404), 429]);
  });

  it("with TRUST_PROXY reads only the last hop, so a client-chosen first hop changes nothing", async () => {
    const app = buildApp({
      db: ctx.database.db,
      config: testConfig({ TRUST_PROXY: "1" }),
      now: () => TEST_NOW,
    });
    const statuses = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await ask(app, guess(i), "127.0.0.1", { "x-forwarded-for": `198.51.100.${i}, 203.0.113.7` })).status,
      );
    expect(statuses).toEqual([...Array(10).fill(404), 429]);
  });

  it("lets the real contact through while many clients guess the record's name: nothing counts against a record (issue 32)", async () => {
    // The attack of issue 32: 40 misses on one record from 40 /64s, in parallel.
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        search(guess(i), `2001:db8:77:${i.toString(16)}::1`).then((r) => r.status),
      ),
    );
    expect(statuses).toEqual(Array(40).fill(404));
    const res = await search({ id: "QUO-1001", contact: "Dana Whitfield" }, "2001:db8:78::1");
    expect(res.status).toBe(200);
    expect((await res.json()).data.resourceUri).toBe(DEMO.openQuoteToken);
  });

  it("under a guessing attack over all clients leaves each client 3 misses, and a right first answer still gets through", async () => {
    const attack = await Promise.all(
      Array.from({ length: LOOKUP_ATTACK.max }, (_, i) =>
        search(guess(i), `2001:db8:${(0x100 + i).toString(16)}::1`).then((r) => r.status),
      ),
    );
    expect(attack).toEqual(Array(LOOKUP_ATTACK.max).fill(404));
    const own = [];
    for (let i = 0; i < 4; i++) own.push((await search(guess(900 + i), "2001:db8:ffff::1")).status);
    expect(own).toEqual([404, 404, 404, 429]);
    expect((await search({ id: "ORD-5003", contact: "Dana Whitfield" }, "2001:db8:fffe::1")).status).toBe(
      200,
    );
    // Two typos, then the right name: still a person, not an attack.
    const typist = "2001:db8:fffd::1";
    expect((await search({ id: "ORD-5003", contact: "Dana Whitfeld" }, typist)).status).toBe(404);
    expect((await search({ id: "ORD-5003", contact: "Dana Whitfild" }, typist)).status).toBe(404);
    expect((await search({ id: "ORD-5003", contact: "Dana Whitfield" }, typist)).status).toBe(200);
  });

  it("counts an unknown number's guesses the same way, so the limit does not tell which numbers exist", async () => {
    const run = async (id: string, prefix: string) => {
      const statuses = [];
      for (let i = 0; i < 25; i++)
        statuses.push(
          (await search({ id, contact: `Guess ${i}` }, `2001:db8:${prefix}:${i.toString(16)}::1`)).status,
        );
      return statuses;
    };
    expect(await run("QUO-99999", "a1")).toEqual(await run("QUO-1001", "a2"));
  });

  it("answers a found record to any number of clients", async () => {
    for (let i = 0; i < 30; i++) {
      const res = await search(
        { id: "ORD-5003", contact: "Dana Whitfield" },
        `2001:db8:90:${i.toString(16)}::1`,
      );
      expect(res.status).toBe(200);
      expect((await res.json()).data.resourceUri).toBe(ORDER_REF);
    }
  });
});
