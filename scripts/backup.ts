// `npm run backup [-- --out FILE]`: backs up the database named by the environment.
//   PostgreSQL (DATABASE_URL): pg_dump's custom format, taken while the portal runs.
//   PGlite (DATA_DIR): its data directory as a .tar.gz. Stop the server first: PGlite allows
//   one process, and a copy taken under a running server is not consistent.
// Prints each table's row count and checksum; `npm run restore` prints them again to compare.
import { parseArgs } from "node:util";
import { parseConfig } from "../server/config.ts";
import { backup, sumsText } from "./dbBackup.ts";

const { values } = parseArgs({ options: { out: { type: "string" } } });
const config = parseConfig(process.env);
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const file = values.out ?? `backups/portal-${stamp}.${config.databaseUrl ? "dump" : "tar.gz"}`;
const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.dataDir}`;
console.log(`Backing up ${where} to ${file}...`);
try {
  const sums = await backup({ url: config.databaseUrl, dataDir: config.dataDir }, file);
  console.log(sumsText(sums));
  console.log(`Done: ${file}`);
} catch (e) {
  console.error(`Backup failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
