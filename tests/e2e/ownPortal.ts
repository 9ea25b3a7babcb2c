import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { IDP_ISSUER, makeIdpKeys, startIdp, type RunningIdp } from "../support/samlIdp.ts";
import { DEMO_TEMPLATE } from "./globalSetup.ts";
import { startServer, type ServerProcess } from "./serverProcess.ts";

/** A portal a spec starts for itself, with fresh demo data it may change freely. */
export interface OwnPortal {
  base: string;
  /** The test identity provider, when Northwind signs in through one. */
  idp: RunningIdp | null;
  /** Its DATA_DIR (the database, and the audit chains' anchor file). */
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts a demo portal on `port` in a folder of its own, from a copy of the demo seeded once
 * for the run (tests/e2e/globalSetup.ts). With `federatedNorthwind`, Northwind Cold Storage
 * signs in through a test identity provider (`npm run saml`), which makes it a federated
 * subscription. The payments and grants a spec makes here touch no other spec's records.
 */
export async function startOwnPortal(
  port: number,
  opts: { federatedNorthwind?: boolean } = {},
): Promise<OwnPortal> {
  const dir = mkdtempSync(join(tmpdir(), `portal-${port}-`));
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: join(dir, "data"),
    DEMO: "1",
    DEMO_SAMPLE_DAYS: "0",
    SIMULATOR: "0",
    PUBLIC_ORIGIN: base,
  };
  let idp: RunningIdp | null = null;
  let server: ServerProcess | null = null;
  // A portal started early whose tests this worker did not run (a retry of the file's other
  // tests, a -g that leaves them out) is killed when the worker exits: its folder goes too.
  const leftOver = () => {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // The server may still be writing as it stops; the system's temp cleaning takes the rest.
    }
  };
  process.once("exit", leftOver);
  const stop = async () => {
    process.off("exit", leftOver);
    await server?.stop();
    await idp?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Copied and configured without blocking the worker: a spec's tests on the shared portals
    // run meanwhile (ownPortalSuite.ts starts this as the file loads).
    await cp(join(DEMO_TEMPLATE, "data"), env.DATA_DIR, { recursive: true });
    if (opts.federatedNorthwind) {
      const keys = makeIdpKeys();
      writeFileSync(join(dir, "idp.pem"), keys.cert);
      idp = await startIdp(keys, (acs) => acs.replace("/acs/", "/metadata/"));
      const saml = [
        "--name",
        "northwind",
        "--subscription",
        "Northwind Cold Storage",
        "--entry-point",
        idp.url,
      ];
      const idpKeys = ["--idp-issuer", IDP_ISSUER, "--idp-cert", join(dir, "idp.pem")];
      await promisify(execFile)(process.execPath, ["scripts/saml.ts", ...saml, ...idpKeys], { env });
    }
    server = await startServer(base, `portal on ${port}`, env);
  } catch (error) {
    // A start that failed halfway leaves no server, provider or folder behind for the retry.
    await stop();
    throw error;
  }
  return { base, idp, stop, dataDir: env.DATA_DIR };
}
