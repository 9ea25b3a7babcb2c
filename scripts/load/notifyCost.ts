// What LISTEN/NOTIFY costs a commit (issue 38): 2,000 small write transactions a second on
// PostgreSQL, with a listening connection open, first with no NOTIFY, then with one NOTIFY per
// transaction (what each push did before group commit), then with one per 20 transactions
// (a batch's list of device ids, what runs now). Each transaction is one round trip
// (begin; insert; [notify;] commit); its time from send to answer is the commit latency.
import { createDatabase } from "./postgres.ts";

export interface NotifyRow {
  mode: string;
  transactions: number;
  perSecond: number;
  p50: number;
  p99: number;
  notifications: number;
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;

/** Runs the three modes for `seconds` each at `rate` transactions a second; null without PostgreSQL. */
export async function notifyCost(opts: { rate: number; seconds: number; databaseUrl?: string }) {
  const db = await createDatabase("proof_n", opts.databaseUrl);
  if (!db) return null;
  const { Pool, Client } = (await import("pg")).default;
  const pool = new Pool({ connectionString: db.url, max: 10 });
  const listener = new Client({ connectionString: db.url });
  let heard = 0;
  try {
    await pool.query(
      "create table bench_writes (id bigserial primary key, device int, value float8, at timestamptz)",
    );
    await listener.connect();
    listener.on("notification", () => heard++);
    await listener.query("LISTEN bench_live");
    const out: NotifyRow[] = [];
    for (const [mode, every] of [
      ["no NOTIFY", 0],
      ["one NOTIFY per transaction", 1],
      ["one NOTIFY per 20 transactions (a batch's ids)", 20],
    ] as const) {
      heard = 0;
      const times: number[] = [];
      const gap = 1000 / opts.rate;
      const start = performance.now() + 50;
      const running: Promise<void>[] = [];
      for (let k = 0; k * gap < opts.seconds * 1000; k++) {
        const planned = start + k * gap;
        const wait = planned - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        const device = k % 30_000;
        const ids = Array.from({ length: every }, (_, j) => device + j);
        const notify =
          every && k % every === 0
            ? `select pg_notify('bench_live', '${JSON.stringify(every === 1 ? { deviceId: device, time: 0 } : { deviceIds: ids })}');`
            : "";
        const sent = performance.now();
        running.push(
          pool
            .query(
              `begin; insert into bench_writes (device, value, at) values (${device}, ${k % 97}, now()); ${notify} commit;`,
            )
            .then(() => void times.push(performance.now() - sent)),
        );
      }
      await Promise.all(running);
      await new Promise((r) => setTimeout(r, 200));
      times.sort((a, b) => a - b);
      out.push({
        mode,
        transactions: times.length,
        perSecond: times.length / opts.seconds,
        p50: pct(times, 50),
        p99: pct(times, 99),
        notifications: heard,
      });
    }
    return out;
  } finally {
    await listener.end().catch(() => {});
    await pool.end().catch(() => {});
    await db.drop();
  }
}

/** The table `npm run load` prints. */
export function notifyTable(rows: NotifyRow[], seconds: number) {
  return [
    `### Commit latency with and without NOTIFY (PostgreSQL, one listener, ${seconds} s each)\n`,
    "| mode | transactions/s | p50 (ms) | p99 (ms) | notifications heard |",
    "|---|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.mode} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.notifications} |`,
    ),
  ].join("\n");
}
