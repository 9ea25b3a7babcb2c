import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import * as schema from "../../server/db/schema/index.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data dir dump every server test file starts from ("" on PostgreSQL). */
    pgliteTemplate: string;
  }
}

/**
 * PGlite's initdb costs seconds per database (tens on a busy machine), once per test file;
 * a migrated database is made once here and each file loads its dump instead.
 */
export async function setup(project: TestProject) {
  if (process.env["TEST_DATABASE_URL"]) {
    project.provide("pgliteTemplate", "");
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), "portal-test-"));
  const client = new PGlite();
  await migrate(drizzle({ client, schema }), {
    migrationsFolder: new URL("../../server/db/migrations", import.meta.url).pathname,
  });
  const file = join(dir, "template.tar");
  await writeFile(file, new Uint8Array(await (await client.dumpDataDir("none")).arrayBuffer()));
  await client.close();
  project.provide("pgliteTemplate", file);
  return () => rm(dir, { recursive: true, force: true });
}
