import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

const READY_TIMEOUT_MS = 120_000;

/**
 * One portal process (`node server/index.ts`) on a fixed port and database, started again
 * and again on the same data: killed with SIGKILL at random, or stopped with SIGTERM.
 */
export class ServerProcess {
  private child: ChildProcess | null = null;
  private readonly log: WriteStream;
  readonly url: string;
  /** Milliseconds from each start to the first 200 of /healthz. */
  readonly startTimes: number[] = [];

  private readonly port: number;
  private readonly env: Record<string, string>;

  constructor(port: number, env: Record<string, string>, logFile: string) {
    this.port = port;
    this.env = env;
    this.url = `http://127.0.0.1:${port}`;
    this.log = createWriteStream(logFile, { flags: "a" });
  }

  /** The running process's id (undefined when stopped). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process and waits until /healthz answers 200. */
  async start(): Promise<void> {
    if (this.child) throw new Error("The server is already running.");
    const began = Date.now();
    const child = spawn(process.execPath, ["server/index.ts"], {
      env: proofServerEnv(this.port, this.env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    child.once("exit", () => {
      if (this.child === child) this.child = null;
    });
    while (Date.now() - began < READY_TIMEOUT_MS) {
      if (this.child !== child) throw new Error(`The server on port ${this.port} exited while starting.`);
      if (await this.healthy()) {
        this.startTimes.push(Date.now() - began);
        return;
      }
      await sleep(25);
    }
    throw new Error(`The server on port ${this.port} did not answer /healthz within 2 minutes.`);
  }

  private async healthy(): Promise<boolean> {
    try {
      const res = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      return res.status === 200;
    } catch {
      return false;
    }
  }

  /** kill -9, and waits until the process is gone (its port free for the next start). */
  async kill9(): Promise<void> {
    await this.end("SIGKILL");
  }

  /** SIGTERM: the server finishes its open requests and exits. */
  async stop(): Promise<void> {
    await this.end("SIGTERM");
  }

  private async end(signal: NodeJS.Signals) {
    const child = this.child;
    if (!child) return;
    // 'close', not 'exit': its last output has then reached the log stream too.
    const gone = new Promise<void>((resolve) => child.once("close", () => resolve()));
    child.kill(signal);
    await gone;
    this.child = null;
  }

  /** Ends the log and waits until every line of it is on disk (to be read afterwards). */
  closeLog(): Promise<void> {
    return new Promise((resolve) => (this.log.writableFinished ? resolve() : this.log.end(resolve)));
  }

  close() {
    this.log.end();
  }
}

/** Kills at random moments while `running()` holds: each kill 0.5–3 s after the server answers. */
export async function killLoop(server: ServerProcess, kills: number, running: () => boolean) {
  let done = 0;
  while (done < kills && running()) {
    await sleep(500 + Math.random() * 2500);
    await server.kill9();
    done++;
    await server.start();
  }
  return done;
}

/** The environment a proof's server process runs with: demo data, no simulator, API only. */
export function proofServerEnv(port: number, env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DEMO: "1",
    SIMULATOR: "0",
    DEMO_SAMPLE_DAYS: "0",
    SERVE_STATIC: "0",
    // The drivers play browsers at many addresses (X-Forwarded-For): the card-testing
    // limits count per address, and one loopback address would hit them at once.
    TRUST_PROXY: "1",
    LOG_REQUESTS: "0",
    // Proof databases come and go: their chains' heads are not kept in ./data.
    AUDIT_ANCHOR_FILE: "off",
    ...env,
  };
}
