import { spawn, type ChildProcess } from "node:child_process";
import type { WriteStream } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { proofServerEnv } from "./server.ts";

/** How a process ended: its exit code (null after a signal), the signal, and when. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  at: number;
}

/**
 * One portal process whose end is watched (server.ts's ServerProcess only waits for it): the
 * SIGTERM and database proofs need its exit code, how long the drain took, and whether it
 * stayed up. The environment is the kill proof's (demo seed, no simulator, API only).
 */
export class Instance {
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
  exit: Exit | null = null;
  readonly url: string;

  constructor(port: number, env: Record<string, string>, log: WriteStream) {
    this.url = `http://127.0.0.1:${port}`;
    this.child = spawn(process.execPath, ["server/index.ts"], {
      env: proofServerEnv(port, env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child.stdout?.pipe(log, { end: false });
    this.child.stderr?.pipe(log, { end: false });
    this.exited = new Promise((resolve) =>
      this.child.once("exit", (code, signal) => {
        this.exit = { code, signal, at: Date.now() };
        resolve(this.exit);
      }),
    );
  }

  /** Waits until /healthz answers 200 (at most 2 minutes); throws when the process exits first. */
  async ready(): Promise<void> {
    const began = Date.now();
    while (Date.now() - began < 120_000) {
      if (this.exit) throw new Error(`The server exited while starting (code ${this.exit.code}).`);
      try {
        const res = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(1000) });
        await res.arrayBuffer();
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(25);
    }
    throw new Error("The server did not answer /healthz within 2 minutes.");
  }

  /** Sends SIGTERM and waits for the exit. */
  async terminate(): Promise<Exit> {
    if (!this.exit) this.child.kill("SIGTERM");
    return this.exited;
  }

  /** Last resort on a failed run: SIGKILL, so no process outlives the proof. */
  async kill(): Promise<void> {
    if (!this.exit) this.child.kill("SIGKILL");
    await this.exited;
  }
}
