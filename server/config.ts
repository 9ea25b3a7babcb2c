import { z } from "zod";

const origin = z
  .string()
  .trim()
  .transform((v) => v.replace(/\/+$/, ""))
  .refine(
    (v) => v === "" || /^https?:\/\/[^/]+$/.test(v) || /^wss?:\/\/[^/]+$/.test(v),
    "must be an origin like https://host:port",
  )
  .default("");

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

/** Server environment, parsed once; bad values stop the start with a clear message. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().default("127.0.0.1"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().optional(),
  SMTP_URL: z.string().optional(),
  PUBLIC_ORIGIN: origin,
  API_ORIGIN: origin,
  WEB_ORIGIN: origin,
  ACCOUNT_ORIGIN: origin,
  WS_ORIGIN: origin,
  DEMO: flag.optional(),
  DEMO_SAMPLE_DAYS: z.coerce.number().int().min(0).max(366).default(365),
  SIMULATOR: flag.optional(),
  SIMULATOR_INTERVAL_SECONDS: z.coerce.number().min(1).max(3600).default(10),
  TRUST_PROXY: flag.optional(),
  DIST_DIR: z.string().default("./dist"),
  SERVE_STATIC: flag.optional(),
});

export type Config = ReturnType<typeof parseConfig>;

/** Reads the environment into the server's configuration. */
export function parseConfig(env: Record<string, string | undefined>) {
  const result = Env.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = result.data;
  const embedded = !e.DATABASE_URL;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    origins: {
      public: e.PUBLIC_ORIGIN,
      api: e.API_ORIGIN,
      web: e.WEB_ORIGIN,
      account: e.ACCOUNT_ORIGIN,
      ws: e.WS_ORIGIN,
    },
    /** Demo data is on by default with the embedded database. */
    demo: e.DEMO ?? embedded,
    demoSampleDays: e.DEMO_SAMPLE_DAYS,
    simulator: e.SIMULATOR ?? e.DEMO ?? embedded,
    simulatorIntervalSeconds: e.SIMULATOR_INTERVAL_SECONDS,
    trustProxy: e.TRUST_PROXY ?? false,
    distDir: e.DIST_DIR,
    serveStatic: e.SERVE_STATIC ?? true,
  };
}

/** What the browser needs to find the API, web, account and websocket hosts (empty = same origin). */
export function runtimeConfig(config: Config) {
  const { api, web, account, ws } = config.origins;
  return { apiBase: api, webBase: web, accountBase: account, wsBase: ws };
}
export type RuntimeConfig = ReturnType<typeof runtimeConfig>;
