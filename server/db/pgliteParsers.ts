import { types } from "@electric-sql/pglite";

/*
 * drizzle-orm/pglite passes its own value parsers with every query (dates, times and intervals,
 * and their arrays, kept as PostgreSQL's text), and PGlite merges them into its table of 318
 * parsers for each result by spreading both: about 0.24 ms of CPU a query on this machine, a
 * third of a small query's cost. Put into PGlite's table once as it starts instead, they are there
 * already; the client drizzle sees then leaves drizzle's own copy out of each query. So every
 * query on this PGlite reads those types as text, as drizzle wants; a query's parsers for none
 * but those type ids are taken to be drizzle's (its functions are new closures per query and
 * cannot be matched by identity), and any other parsers are passed on as they are.
 */

/** The type ids drizzle-orm/pglite keeps as text (its session.js): the same parser for each. */
const AS_TEXT = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
];

const asIs = (value: string) => value;

/** drizzle's parsers, put into PGlite's table once it has started (db/client.ts). */
export const DRIZZLE_PARSERS: Record<number, (value: string) => string> = Object.fromEntries(
  AS_TEXT.map((oid) => [oid, asIs]),
);

type QueryOptions = { parsers?: Record<string, unknown> } & Record<string, unknown>;

/** A query's options without parsers that only repeat DRIZZLE_PARSERS' type ids. */
export function withoutPresetParsers<T extends QueryOptions | undefined>(options: T): T {
  const parsers = options?.parsers;
  if (!parsers || !Object.keys(parsers).every((oid) => Number(oid) in DRIZZLE_PARSERS)) return options;
  const { parsers: _preset, ...rest } = options;
  return rest as T;
}

type Queryable = {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<unknown>;
  transaction<R>(work: (tx: Queryable) => Promise<R>): Promise<R>;
};

/**
 * The PGlite client (or one of its transactions) as drizzle should see it: each query's
 * parsers left out when PGlite holds them already; everything else is the client's own.
 */
export function presetParsersClient<C extends object>(client: C): C {
  const target = client as unknown as Queryable;
  return new Proxy(client, {
    get(obj, prop) {
      if (prop === "query")
        return (sql: string, params?: unknown[], options?: QueryOptions) =>
          target.query(sql, params, withoutPresetParsers(options));
      if (prop === "transaction")
        return <R>(work: (tx: Queryable) => Promise<R>) =>
          target.transaction((tx) => work(presetParsersClient(tx)));
      // PGlite keeps private fields: its methods run on the client itself, not on this proxy.
      const value: unknown = Reflect.get(obj, prop, obj);
      return typeof value === "function" ? value.bind(obj) : value;
    },
  });
}
