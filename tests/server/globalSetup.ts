import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { driverNeutral } from "../../server/db/client.ts";
import * as schema from "../../server/db/schema/index.ts";
import { seedForTests, type SeedCopy } from "./seedTemplate.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data dir dump every server test file starts from ("" on PostgreSQL). */
    pgliteTemplate: string;
    /** The same with the demo seeded and its copy kept, for the seeded files (PGlite only). */
    pgliteSeeded: { file: string; copy: SeedCopy };
  }
}

/** The client's data dir, written to `file`. */
async function dump(client: PGlite, file: string) {
  await writeFile(file, new Uint8Array(await (await client.dumpDataDir("none")).arrayBuffer()));
  return file;
}

/**
 * PGlite's initdb costs seconds per database (tens on a busy machine), once per test file;
 * a migrated database is made once here and each file loads its dump instead. The 45 seeded
 * files likewise load one seeded dump rather than each seeding the demo itself.
 */
export async function setup(project: TestProject) {
  if (process.env["TEST_DATABASE_URL"]) {
    project.provide("pgliteTemplate", "");
    project.provide("pgliteSeeded", { file: "", copy: { tables: [], sequences: [] } });
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), "portal-test-"));
  const client = new PGlite();
  const db = drizzle({ client, schema });
  await migrate(db, {
    migrationsFolder: new URL("../../server/db/migrations", import.meta.url).pathname,
  });
  project.provide("pgliteTemplate", await dump(client, join(dir, "template.tar")));
  const copy = await seedForTests(driverNeutral(db));
  project.provide("pgliteSeeded", { file: await dump(client, join(dir, "seeded.tar")), copy });
  await client.close();
  return () => rm(dir, { recursive: true, force: true });
}
