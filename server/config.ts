import { join } from "node:path";
import { z } from "zod";
import {
  formatHost,
  isLoopbackListen,
  isLoopbackName,
  isWildcardAddress,
  parseHost,
} from "./http/hostNames.ts";
import type { RuntimeConfig } from "../src/api/config.ts";

const origin = z
  .string()
  .trim()
  .transform((v) => v.replace(/\/+$/, ""))
  .refine(
    (v) => v === "" || (/^(https?|wss?):\/\/[^/]+$/.test(v) && URL.canParse(v)),
    "must be an origin like https://host:port",
  )
  .default("");

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

/** Comma-separated host[:port] names; each must be a bare name, never a URL. */
const hostList = z
  .string()
  .default("")
  .transform((v, ctx) =>
    v
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean)
      .flatMap((entry) => {
        const host = parseHost(entry);
        if (host) return [formatHost(host)];
        ctx.addIssue({ code: "custom", message: `"${entry}" is not a host name (write name or name:port)` });
        return [];
      }),
  );

/** Server environment, parsed once; bad values stop the start with a clear message. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().default("127.0.0.1"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  DATABASE_READ_URL: z.string().trim().optional(),
  DATABASE_READ_MAX_LAG_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  PUSH_BATCH_MAX: z.coerce.number().int().min(1).max(2000).default(500),
  PUSH_BATCH_LINGER_MS: z.coerce.number().min(0).max(1000).default(5),
  PUSH_BATCH_RUNNING: z.coerce.number().int().min(1).max(100).default(1),
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
  ALLOWED_HOSTS: hostList,
  METRICS_TOKEN: z.string().trim().min(16, "must be at least 16 characters").optional(),
  AUDIT_KEY: z.string().trim().min(32, "must be at least 32 characters").optional(),
  AUDIT_TRAIL: flag.optional(),
  AUDIT_SEAL_MS: z.coerce.number().int().min(20).max(60_000).default(200),
  AUDIT_ANCHOR_FILE: z.string().trim().min(1).optional(),
  AUDIT_ANCHOR_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  LOG_REQUESTS: flag.optional(),
  ANSWER_CACHE_MS: z.coerce.number().int().min(0).max(10_000).optional(),
  REPORT_WALKS_PER_CLIENT: z.coerce.number().int().min(0).max(10_000).optional(),
  MAIL_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  ALERT_TICK_MS: z.coerce.number().int().min(200).max(60_000).default(2000),
  REPORT_SCHEDULE_TICK_MS: z.coerce.number().int().min(200).max(300_000).default(60_000),
  DATA_RETENTION_INTERVAL_MS: z.coerce.number().int().min(0).max(604_800_000).default(86_400_000),
  WEBHOOK_PRIVATE: z.enum(["deny", "loopback", "allow"]).optional(),
  LIVE_SOCKETS_PER_CLIENT: z.coerce.number().int().min(0).max(1_000_000).default(100),
  LIVE_SUBSCRIBE_SECONDS: z.coerce.number().min(0.05).max(600).default(10),
});
type Env = z.infer<typeof Env>;

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
  const demo = e.DEMO ?? embedded;
  const problems = startProblems(e, demo);
  if (problems.length) throw new Error(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    /** PostgreSQL connections per process; instances times this must stay under max_connections. */
    databasePoolMax: e.DATABASE_POOL_MAX,
    /** A streaming replica the public reads use while it is fresh (server/data/readRouter.ts). */
    databaseReadUrl: e.DATABASE_READ_URL || undefined,
    /** Past this lag (seconds) the public reads go back to the primary until the replica catches up. */
    databaseReadMaxLagSeconds: e.DATABASE_READ_MAX_LAG_SECONDS,
    /** Group commit of device pushes (data/ingest.ts): pushes per transaction, the wait for company, batches at once. */
    pushBatch: {
      maxBatch: e.PUSH_BATCH_MAX,
      lingerMs: e.PUSH_BATCH_LINGER_MS,
      maxRunning: e.PUSH_BATCH_RUNNING,
    },
    smtpUrl: e.SMTP_URL,
    origins: {
      public: e.PUBLIC_ORIGIN,
      api: e.API_ORIGIN,
      web: e.WEB_ORIGIN,
      account: e.ACCOUNT_ORIGIN,
      ws: e.WS_ORIGIN,
    },
    /** Demo data is on by default with the embedded database. */
    demo,
    /** The default demo (DEMO unset) answers only this computer; DEMO=1 shares it on purpose. */
    demoLocalOnly: demo && e.DEMO === undefined,
    demoSampleDays: e.DEMO_SAMPLE_DAYS,
    /** The simulator signs with the demo device keys, which only demo mode accepts. */
    simulator: demo && (e.SIMULATOR ?? true),
    simulatorIntervalSeconds: e.SIMULATOR_INTERVAL_SECONDS,
    trustProxy: e.TRUST_PROXY ?? false,
    distDir: e.DIST_DIR,
    serveStatic: e.SERVE_STATIC ?? true,
    /** Host names served besides the origins' and loopback names (a proxy that rewrites Host). */
    allowedHosts: e.ALLOWED_HOSTS,
    /** Lets GET /metrics answer other computers that send it as a Bearer token (loopback always may). */
    metricsToken: e.METRICS_TOKEN,
    /** Makes the audit chain's hashes HMACs, so that rewriting a chain needs this key (core/auditChain.ts). */
    auditKey: e.AUDIT_KEY,
    /**
     * AUDIT_TRAIL=0 writes no audit rows: only for `npm run proof`'s baseline, which measures
     * what the trail costs the payment and settings paths. The server warns at every start.
     */
    auditTrail: e.AUDIT_TRAIL ?? true,
    /** How often each instance chains the audit rows committed since (server/data/auditSeal.ts). */
    auditSealMs: e.AUDIT_SEAL_MS,
    /**
     * Where this instance appends the audit chains' heads it seals, outside the database
     * (services/auditAnchors.ts), unless named: DATA_DIR/audit-anchors.jsonl beside PGlite's
     * files, or DATA_DIR/audit-anchors-{database}.jsonl on PostgreSQL, so that two databases
     * never share one. "off" keeps none.
     */
    auditAnchorFile: anchorFile(e.AUDIT_ANCHOR_FILE, e.DATA_DIR, e.DATABASE_URL),
    /** How often each chain's newest head is written there (and logged). */
    auditAnchorMs: e.AUDIT_ANCHOR_MS,
    /**
     * One JSON line per request on stdout: on by default; off under Vitest (VITEST is set there)
     * and in the local demo (DEMO unset), whose simulator's pushes would scroll the start
     * banner's demo links off the screen within a minute.
     */
    logRequests: e.LOG_REQUESTS ?? (!process.env["VITEST"] && !(demo && e.DEMO === undefined)),
    /**
     * How long an anonymous public read (public order, report, chart data) is reused: 1 s by
     * default, 0 turns it off. Off under Vitest, whose tests rewrite the database between
     * requests without going through the API (the cache's own test turns it on).
     */
    answerCacheMs: e.ANSWER_CACHE_MS ?? (process.env["VITEST"] ? 0 : 1000),
    /**
     * Whole-window reads of public reports (compliance figures, PDF) one client may start in a
     * row before waiting (one more each 10 s); 0 lifts the per-client limit (the process-wide
     * one stays). Off under Vitest and in the browser tests, whose one address is every visitor.
     */
    reportWalksPerClient: e.REPORT_WALKS_PER_CLIENT ?? (process.env["VITEST"] ? 0 : 10),
    /** Days the outbox keeps a message (sent or not); one-time links leave it sooner (data/outbox.ts). */
    mailRetentionDays: e.MAIL_RETENTION_DAYS,
    /** How often each instance looks for due alert work (delays, silence, repeats, deliveries). */
    alertTickMs: e.ALERT_TICK_MS,
    /** How often each instance looks for due scheduled reports (a send is at most this late). */
    reportScheduleTickMs: e.REPORT_SCHEDULE_TICK_MS,
    /**
     * How often each instance drops the months of readings and rollups no plan may see any more
     * (flows/dataRetention.ts): daily by default; 0 turns the job off (during a restore, say).
     */
    dataRetentionIntervalMs: e.DATA_RETENTION_INTERVAL_MS,
    /**
     * Which webhook addresses a rule may call besides public ones: none by default, loopback in
     * the demo (a receiver on this computer), private networks only when set to allow.
     */
    webhookPrivate: e.WEBHOOK_PRIVATE ?? (demo ? "loopback" : "deny"),
    /** Live sockets one client address (as the rate limits key it) may hold on an instance; 0: no cap (routes/live.ts). */
    liveSocketsPerClient: e.LIVE_SOCKETS_PER_CLIENT,
    /** A live socket that has not asked for a device within this many seconds is closed. */
    liveSubscribeSeconds: e.LIVE_SUBSCRIBE_SECONDS,
  };
}

/** Settings that parse but must not run together; each line names the variable to change. */
function startProblems(e: Env, demo: boolean): string[] {
  const problems: string[] = [];
  if (e.DATABASE_READ_URL && !e.DATABASE_URL)
    problems.push("DATABASE_READ_URL: a read replica needs DATABASE_URL (its primary) as well.");
  const shared = !isLoopbackListen(e.HOST);
  const where = isWildcardAddress(e.HOST) ? "every network interface" : "other machines";
  if (demo && e.DEMO === undefined) {
    const why = `and demo mode (on by default with the embedded database) publishes accounts whose password is printed at start. Set DEMO=0 for real use, or DEMO=1 to show the demo to others on purpose.`;
    if (shared) problems.push(`HOST: ${e.HOST || "(empty)"} listens on ${where}, ${why}`);
    for (const [name, value] of foreignNames(e))
      problems.push(`${name}: ${value} names another machine, ${why}`);
  }
  if (shared && !e.PUBLIC_ORIGIN && !e.ACCOUNT_ORIGIN)
    problems.push(
      `PUBLIC_ORIGIN: HOST=${e.HOST} listens on ${where}, so set PUBLIC_ORIGIN (or ACCOUNT_ORIGIN) to the address people use, e.g. https://portal.example.com: emailed links are built from it, and requests for other host names are refused.`,
    );
  if (!demo && e.SIMULATOR)
    problems.push(
      "SIMULATOR: the simulator pushes with the demo device keys, which only demo mode accepts; set DEMO=1 or leave SIMULATOR unset.",
    );
  return problems;
}

/** Configured origins and ALLOWED_HOSTS entries that are not names of this computer. */
function foreignNames(e: Env): [string, string][] {
  const origins = (["PUBLIC_ORIGIN", "API_ORIGIN", "WEB_ORIGIN", "ACCOUNT_ORIGIN", "WS_ORIGIN"] as const)
    .filter((name) => e[name] && !isLoopbackName(new URL(e[name]).hostname))
    .map((name): [string, string] => [name, e[name]]);
  const hosts = e.ALLOWED_HOSTS.filter((h) => !isLoopbackName(parseHost(h)?.hostname ?? "")).map(
    (h): [string, string] => ["ALLOWED_HOSTS", h],
  );
  return [...origins, ...hosts];
}

/** What the browser needs to find the API, web, account and websocket hosts (empty = same origin). */
export function runtimeConfig(config: Config): RuntimeConfig {
  const { api, web, account, ws } = config.origins;
  return { apiBase: api, webBase: web, accountBase: account, wsBase: ws };
}

/** The anchor file a portal keeps by default (config.auditAnchorFile). */
function anchorFile(named: string | undefined, dataDir: string, databaseUrl: string | undefined) {
  if (named === "off") return undefined;
  if (named) return named;
  if (!databaseUrl) return join(dataDir, "audit-anchors.jsonl");
  let name = "postgres";
  try {
    name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) || name;
  } catch {
    // A URL node cannot parse still names a database PostgreSQL's client may reach.
  }
  return join(dataDir, `audit-anchors-${name.replace(/[^A-Za-z0-9_.-]/g, "_")}.jsonl`);
}
