import { createServer, type Socket } from "node:net";
import { drizzle } from "drizzle-orm/node-postgres";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { ApiError, UNEXPECTED } from "../../server/core/errors.ts";
import { driverNeutral, postgresPool } from "../../server/db/client.ts";
import * as schema from "../../server/db/schema/index.ts";
import { DATABASE_AWAY, isDatabaseAway } from "../../server/http/errors.ts";
import { answerError } from "../../server/http/onError.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

type Pool = Awaited<ReturnType<typeof postgresPool>>;

/** A TCP server on 127.0.0.1; `silent` accepts connections and never answers (a hung database). */
async function listen(silent: boolean) {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    if (silent) sockets.add(socket.on("error", () => {}));
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  };
  return { port, close };
}

/** A port on 127.0.0.1 with nothing listening: taken from the system, then closed. */
async function closedPort(): Promise<number> {
  const { port, close } = await listen(false);
  await close();
  return port;
}

/** The app on a real pg pool whose database is away. */
function awayApp(pool: Pool) {
  const db = driverNeutral(drizzle({ client: pool, schema }));
  return buildApp({ db, config: testConfig(), now: () => TEST_NOW });
}

async function expectAway(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  expect(await res.json()).toEqual({ success: false, data: [{ field: null, message: DATABASE_AWAY }] });
}

const ORDER = "/api/v1/orders/public/ORD-5003-abcdefabcdef";

describe("the API while PostgreSQL is away", () => {
  const ctx = useTestApp({ seeded: true });
  const pools: Pool[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  let refused: Pool;
  let hung: Pool;
  beforeAll(async () => {
    refused = await postgresPool(`postgres://postgres:postgres@127.0.0.1:${await closedPort()}/portal`);
    const silent = await listen(true);
    closers.push(silent.close);
    hung = await postgresPool(`postgres://postgres:postgres@127.0.0.1:${silent.port}/portal`, {
      connectTimeoutMs: 500,
    });
    pools.push(refused, hung);
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await Promise.all(closers.map((close) => close()));
  });

  it("answers the public order 503 at once when the database refuses connections", async () => {
    const app = awayApp(refused);
    const started = Date.now();
    await expectAway(await app.request(`http://localhost${ORDER}`));
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("answers a signed-in call 503, not 500, when the database refuses connections", async () => {
    const signedIn = browser(ctx.app);
    await signIn(signedIn, "admin@example.com");
    const away = browser(awayApp(refused));
    for (const [name, value] of signedIn.jar) away.jar.set(name, value);
    await expectAway(await away.get("/api/v1/session"));
  });

  it("answers 503 within the connect timeout when the database accepts but never answers", async () => {
    const app = awayApp(hung);
    const started = Date.now();
    const answers = await Promise.all([
      app.request(`http://localhost${ORDER}`),
      app.request(`http://localhost${ORDER}`),
    ]);
    for (const res of answers) await expectAway(res);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

// A real PostgreSQL is needed to cut a connection from the server's side (the CI pass has one).
const PG_URL = process.env["TEST_DATABASE_URL"];
describe.skipIf(!PG_URL)("a PostgreSQL connection cut while a request holds it", () => {
  it("is logged, never ends the process, and its next query fails as a query", async () => {
    const pool = await postgresPool(PG_URL!);
    try {
      const held = await pool.connect();
      const { pid } = (await held.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!;
      // Without a listener on the held client, the cut emits an unhandled 'error' (fatal).
      await pool.query("select pg_terminate_backend($1)", [pid]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(held.query("select 1")).rejects.toThrow();
      held.release(true);
      expect((await pool.query("select 1 as one")).rows[0]).toEqual({ one: 1 });
    } finally {
      await pool.end();
    }
  });
});

describe("DATABASE_POOL_MAX", () => {
  it("defaults to 10 connections and refuses a pool of none", () => {
    expect(testConfig().databasePoolMax).toBe(10);
    expect(testConfig({ DATABASE_POOL_MAX: "25" }).databasePoolMax).toBe(25);
    expect(() => testConfig({ DATABASE_POOL_MAX: "0" })).toThrow(/DATABASE_POOL_MAX/);
  });
});

describe("which database failures answer 503", () => {
  const failing = (err: Error) =>
    new Hono()
      .get("/", () => {
        throw err;
      })
      .onError(answerError);
  const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
  /** Drizzle's wrapper: the driver's error is its cause. */
  const wrapped = (cause: Error) => new Error("Failed query: select 1\nparams: ", { cause });

  it("answers 503 for a server shutting down (57P01) behind Drizzle's wrapper", async () => {
    const err = wrapped(pgError("57P01", "terminating connection due to administrator command"));
    await expectAway(await failing(err).request("/"));
  });

  it("answers 500 for a unique violation (23505), with no Retry-After", async () => {
    const res = await failing(
      wrapped(pgError("23505", "duplicate key value violates unique constraint")),
    ).request("/");
    expect(res.status).toBe(500);
    expect(res.headers.get("retry-after")).toBeNull();
    expect(await res.json()).toEqual({ success: false, data: [{ field: null, message: UNEXPECTED }] });
  });

  it("keeps an expected failure's own status and message", async () => {
    const res = await failing(new ApiError(409, "Taken.")).request("/");
    expect(res.status).toBe(409);
  });

  it("tells connection failures from query failures", () => {
    expect(isDatabaseAway(pgError("08006", "connection failure"))).toBe(true);
    expect(isDatabaseAway(pgError("57P03", "the database system is starting up"))).toBe(true);
    expect(isDatabaseAway(pgError("ECONNRESET", "read ECONNRESET"))).toBe(true);
    expect(
      isDatabaseAway(new AggregateError([pgError("ECONNREFUSED", "connect ECONNREFUSED ::1:5432")])),
    ).toBe(true);
    expect(isDatabaseAway(wrapped(new Error("Connection terminated unexpectedly")))).toBe(true);
    expect(isDatabaseAway(wrapped(new Error("timeout exceeded when trying to connect")))).toBe(true);
    expect(isDatabaseAway(pgError("22P02", "invalid input syntax for type uuid"))).toBe(false);
    expect(isDatabaseAway(new Error("Failed query: insert\nparams: Connection terminated"))).toBe(false);
    expect(isDatabaseAway("ECONNREFUSED")).toBe(false);
  });
});
