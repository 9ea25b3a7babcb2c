import { test } from "./fixtures.ts";
import { startOwnPortal, type OwnPortal } from "./ownPortal.ts";

/**
 * Called inside a `test.describe`: its tests run in order against a demo portal of their own
 * on `port` (ownPortal.ts), started before the first and stopped after the last.
 *
 * In a worker the portal starts as the file loads, not when the first test asks for it: the
 * tests a spec runs on the shared portals before this describe (quoteOrder's, share's) run
 * while it boots, and the worker no longer waits 8–12 s for it. (The runner loads each file
 * too, only to list its tests: TEST_WORKER_INDEX is set in workers alone.) A start nobody
 * awaited (a retry running only the file's other tests) ends with the worker, as every
 * portal a worker started does (serverProcess.ts).
 */
export function onOwnPortal(port: number, opts: Parameters<typeof startOwnPortal>[1] = {}) {
  test.describe.configure({ mode: "serial" });
  test.use({ baseURL: `http://127.0.0.1:${port}` });
  let starting = process.env["TEST_WORKER_INDEX"] === undefined ? undefined : startOwnPortal(port, opts);
  // A failed early start is reported by the beforeAll that awaits it, not as an unhandled rejection.
  starting?.catch(() => {});
  let portal: OwnPortal | undefined;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    // The early start serves the first try only: a retry in this worker starts afresh.
    const early = starting;
    starting = undefined;
    portal = await (early ?? startOwnPortal(port, opts));
  });
  test.afterAll(async () => portal?.stop());
  /** The running portal, for a test that looks into its folder. */
  return () => portal!;
}
