import { spawn, type ChildProcess } from "node:child_process";

/** A portal server the browser tests started (`node server/index.ts`), and how to stop it. */
export interface ServerProcess {
  child: ChildProcess;
  /** Stops it and waits until it has exited, so the port is free again (a retry starts it anew). */
  stop(): Promise<void>;
}

/** Whether something answers `base`/healthz with 200 now. */
export const answers = (base: string) =>
  fetch(`${base}/healthz`).then(
    (r) => r.ok,
    () => false,
  );

/**
 * Waits until a portal a test started answers /healthz (about `seconds`), or throws naming it;
 * also when its `child` process ended first (another portal's answer on the port is not its own).
 */
async function waitForPortal(base: string, name: string, seconds: number, child: ChildProcess) {
  // Asked ten times a second (four before): a portal is up a moment sooner, and a refused
  // connection costs nothing.
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the ${name} exited before it answered`);
    if (await answers(base)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the ${name} did not start`);
}

/**
 * Every portal this process spawned and has not seen exit: a run that ends or is interrupted
 * (before its teardown, or while a portal was still starting) leaves none holding a port.
 */
const running = new Set<ChildProcess>();
process.once("exit", () => running.forEach((child) => child.kill()));

/**
 * Starts the portal with `env` (PORT, DATA_DIR and the rest) and waits until `base` answers;
 * a start that fails stops what it started before it throws. `showErrors` passes the server's
 * stderr through, so a portal that dies says why.
 */
export async function startServer(
  base: string,
  name: string,
  env: NodeJS.ProcessEnv,
  opts: { showErrors?: boolean } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["server/index.ts"], {
    env,
    stdio: ["ignore", "ignore", opts.showErrors ? "inherit" : "ignore"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill();
    await exited;
  };
  try {
    await waitForPortal(base, name, 100, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, stop };
}
