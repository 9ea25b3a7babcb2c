import type { ScryptOptions } from "node:crypto";
import { Worker } from "node:worker_threads";

/*
 * Password hashes run on threads of their own, at a lower CPU priority than the event loop.
 * crypto.scrypt would run them on libuv's shared threads at the loop's priority: on 2 cores a
 * storm of sign-ins kept one core hashing, and the public reads, the load generator and the
 * database took turns on the other with it (public order p99 265 ms at 50 connections during
 * 200 sign-ins, 2026-11-28). At a nice value of NICE a hash takes only what the reads leave
 * when the machine is full and runs at full speed otherwise. Linux sets a thread's nice value
 * for that thread alone; elsewhere (where it would lower the whole process) none is set.
 */

/** The hashing threads' nice value: the scheduler weighs them about a tenth of a normal thread. */
export const NICE = 10;

/**
 * The thread's code, plain JavaScript (a worker evaluated from text needs no file or loader).
 * getBuiltinModule, not require: the text runs as a module when the process was started with
 * --input-type=module, and as a script otherwise.
 */
const SOURCE = `
const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
const { scryptSync } = process.getBuiltinModule("node:crypto");
// Only ever lowered (a process started at a lower priority keeps it); a system that refuses
// (a locked-down container) still gets its hashes.
try {
  const os = process.getBuiltinModule("node:os");
  if (workerData.nice !== null && os.getPriority() < workerData.nice) os.setPriority(workerData.nice);
} catch {}
parentPort.on("message", ({ password, salt, len, options }) => {
  try {
    parentPort.postMessage({ key: scryptSync(password, salt, len, options) });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message) });
  }
});
`;

type Answer = { key: Uint8Array; error?: undefined } | { error: string; key?: undefined };

/** Threads waiting for a hash; one is started when none waits (hashQueue bounds how many run). */
const idle: Worker[] = [];

/** A hashing thread at `nice` (null: the process's own priority). */
export function startHashThread(nice: number | null = process.platform === "linux" ? NICE : null): Worker {
  const worker = new Worker(SOURCE, { eval: true, workerData: { nice } });
  // A thread that fails or stops while idle leaves the pool (a hash under way is rejected by its
  // own listeners), and its error never goes unheard.
  const drop = () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  };
  worker.on("error", drop).on("exit", drop);
  // Idle, it never keeps a stopping process (or a test run) alive; a hash under way does.
  worker.unref();
  return worker;
}

/** scrypt on a hashing thread: the same key crypto.scrypt gives, the same errors as rejections. */
export function scryptOnThread(
  password: string,
  salt: Buffer,
  len: number,
  options: ScryptOptions,
): Promise<Buffer> {
  const worker = idle.pop() ?? startHashThread();
  return new Promise((resolve, reject) => {
    /** Ends this hash; a thread that answered waits for the next one, a failed one is dropped. */
    const settle = (answered: boolean, error: Error | null, key?: Uint8Array) => {
      worker.off("message", onAnswer).off("messageerror", onError).off("error", onError).off("exit", onExit);
      worker.unref();
      if (answered) idle.push(worker);
      if (error) return reject(error);
      resolve(Buffer.from(key!.buffer, key!.byteOffset, key!.byteLength));
    };
    const onAnswer = (a: Answer) => settle(true, a.error === undefined ? null : new Error(a.error), a.key);
    const onError = (error: Error) => settle(false, error);
    const onExit = () => settle(false, new Error("The password thread stopped."));
    worker.on("message", onAnswer).on("messageerror", onError).on("error", onError).on("exit", onExit);
    // A seed or a script awaiting its hash has nothing else keeping the process alive.
    worker.ref();
    // A worker thread's postMessage, not a window's: there is no origin to name.
    // oxlint-disable-next-line unicorn/require-post-message-target-origin
    worker.postMessage({ password, salt, len, options });
  });
}
