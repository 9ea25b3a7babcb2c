import { execFile, execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";

/*
 * A real hot standby of the proof's PostgreSQL 15 (PG_URL): `pg_basebackup -R` into a temp
 * directory, its own postgresql.conf and pg_hba.conf (a Debian data directory holds neither),
 * run with pg_ctl on its own port. Everything runs as the postgres OS user (the proof runs as
 * root in CI, or as postgres); the primary gets a replication line in pg_hba.conf only if it
 * has none for 127.0.0.1, and loses it again at release. No replication slot: a slot left behind
 * by a failed run would keep the primary's WAL forever; the proof's stops are seconds long.
 */

const BIN = "/usr/lib/postgresql/15/bin";

export interface Standby {
  port: number;
  /** The standby's URL for a database of the primary's (same name, same password). */
  urlOf(primaryUrl: string): string;
  /** `pg_ctl stop -m fast`: connections cut at once, as a crashed replica. */
  stop(): Promise<void>;
  /** Starts it and waits until it accepts connections. */
  start(): Promise<void>;
  /** Runs SQL on the standby as the postgres OS user (over its socket). */
  psql(query: string): Promise<string>;
  /** Stops it (at once), removes its directory, and undoes any pg_hba.conf line added to the primary. */
  release(): void;
}

/** A command as the postgres OS user (through runuser when this is root). */
const postgresCommand = (command: string, args: string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];

const asPostgres = (command: string, args: string[], env: Record<string, string> = {}) =>
  execFileSync(...postgresCommand(command, args), {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  }).toString();

/** The same without blocking: the proof's load generator runs in this process meanwhile. */
const asPostgresAsync = async (command: string, args: string[]) =>
  (await promisify(execFile)(...postgresCommand(command, args))).stdout.toString();

/** Whether this process can act as the postgres OS user (root, or that user itself). */
function canActAsPostgres(): boolean {
  try {
    return asPostgres("id", ["-un"]).trim() === "postgres";
  } catch {
    return false;
  }
}

/** The primary's pg_hba.conf path, and whether it already lets 127.0.0.1 replicate. */
function primaryHba(url: URL): { file: string; allows: boolean } {
  const psql = (q: string) =>
    execFileSync("psql", [url.toString(), "-Atc", q], { stdio: ["ignore", "pipe", "pipe"] })
      .toString()
      .trim();
  return {
    file: psql("show hba_file"),
    allows:
      psql(
        "select count(*) from pg_hba_file_rules where 'replication' = any(database) and (address = '127.0.0.1' or address is null and type = 'host')",
      ) !== "0",
  };
}

const HBA_LINE = "host replication all 127.0.0.1/32 scram-sha-256 # portal proof: replica";

/**
 * A standby of the primary at `primaryUrl` on `port`, streaming and accepting reads; null
 * (with the reason printed) where it cannot be made: no PostgreSQL 15 binaries, or neither
 * root nor the postgres user.
 */
export async function makeStandby(primaryUrl: string, port: number): Promise<Standby | null> {
  if (!canActAsPostgres()) {
    console.log("Neither root nor the postgres user: the replica proof is left out.");
    return null;
  }
  const url = new URL(primaryUrl);
  const hba = primaryHba(url);
  const reload = () => execFileSync("psql", [url.toString(), "-Atc", "select pg_reload_conf()"]);
  if (!hba.allows) {
    asPostgres("sh", ["-c", `printf '%s\\n' '${HBA_LINE}' >> '${hba.file}'`]);
    reload();
  }
  const dir = asPostgres("mktemp", ["-d", "/tmp/k-replica-XXXXXX"]).trim();
  const data = `${dir}/data`;
  const ctlArgs = (args: string[]) => ["-D", data, "-w", "-t", "60", ...args];
  const pgctl = (...args: string[]) => asPostgresAsync(`${BIN}/pg_ctl`, ctlArgs(args));
  const standby: Standby = {
    port,
    urlOf(primary) {
      const u = new URL(primary);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.toString();
    },
    async stop() {
      await pgctl("stop", "-m", "fast");
    },
    async start() {
      await pgctl("start", "-l", `${dir}/log`);
      for (let i = 0; i < 60; i++) {
        try {
          await asPostgresAsync(`${BIN}/pg_isready`, ["-q", "-h", "127.0.0.1", "-p", String(port)]);
          return;
        } catch {
          await sleep(250);
        }
      }
      throw new Error(`The standby on port ${port} did not accept connections.`);
    },
    async psql(query) {
      return (
        await asPostgresAsync("psql", ["-h", dir, "-p", String(port), "-d", "postgres", "-Atc", query])
      ).trim();
    },
    release() {
      try {
        asPostgres(`${BIN}/pg_ctl`, ctlArgs(["stop", "-m", "immediate"]));
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
      if (!hba.allows) {
        asPostgres("sed", ["-i", `\\|# portal proof: replica$|d`, hba.file]);
        reload();
      }
    },
  };
  try {
    asPostgres(
      `${BIN}/pg_basebackup`,
      ["-h", url.hostname, "-p", url.port || "5432", "-U", decodeURIComponent(url.username)].concat([
        "-D",
        data,
        "-R",
        "-X",
        "stream",
        "-c",
        "fast",
      ]),
      { PGPASSWORD: decodeURIComponent(url.password) },
    );
    // Its own settings: a Debian data directory keeps postgresql.conf and pg_hba.conf in /etc.
    asPostgres("sh", [
      "-c",
      `cat > ${data}/postgresql.conf <<EOF
port = ${port}
listen_addresses = '127.0.0.1'
unix_socket_directories = '${dir}'
hot_standby = on
max_connections = 100
shared_buffers = 64MB
hba_file = '${data}/pg_hba.conf'
ident_file = '${data}/pg_ident.conf'
EOF
printf '%s\\n' 'local all postgres peer' 'host all all 127.0.0.1/32 scram-sha-256' > ${data}/pg_hba.conf
touch ${data}/pg_ident.conf`,
    ]);
    await standby.start();
    return standby;
  } catch (e) {
    standby.release();
    throw e;
  }
}
