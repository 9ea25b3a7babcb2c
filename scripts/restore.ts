// `npm run restore -- FILE [--force]`: restores a backup of `npm run backup`. Stop the portal first.
//   PostgreSQL (DATABASE_URL): pg_restore into that database, its tables dropped and made
//   again in one transaction (nothing changes when it fails).
//   PGlite (DATA_DIR): into an empty DATA_DIR; --force renames a non-empty one aside first.
// Prints each table's row count and checksum: they must equal the backup's.
import { parseArgs } from "node:util";
import { parseConfig } from "../server/config.ts";
import { restore, sumsText } from "./dbBackup.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: "boolean" } },
});
const [file] = positionals;
if (!file) {
  console.error("Name the backup file: npm run restore -- backups/portal-….tar.gz (or .dump)");
  process.exit(2);
}
const config = parseConfig(process.env);
const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.dataDir}`;
console.log(`Restoring ${file} into ${where}...`);
try {
  const sums = await restore({ url: config.databaseUrl, dataDir: config.dataDir }, file, values.force);
  console.log(sumsText(sums));
  console.log("Done. Compare the figures with the backup's.");
} catch (e) {
  console.error(`Restore failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
