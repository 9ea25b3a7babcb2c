import { test } from "./fixtures.ts";
import { startOwnPortal, type OwnPortal } from "./ownPortal.ts";

/**
 * Called inside a `test.describe`: its tests run in order against a demo portal of their own
 * on `port` (ownPortal.ts), started before the first and stopped after the last.
 */
export function onOwnPortal(port: number, opts: Parameters<typeof startOwnPortal>[1] = {}) {
  test.describe.configure({ mode: "serial" });
  test.use({ baseURL: `http://127.0.0.1:${port}` });
  let portal: OwnPortal | undefined;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    portal = await startOwnPortal(port, opts);
  });
  test.afterAll(async () => portal?.stop());
}
