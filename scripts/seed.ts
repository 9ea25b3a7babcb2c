// `npm run seed`: empties the database named by the environment and seeds the demo data.
// Stop the server first when it uses the embedded database (PGlite allows one process).
import { mkdirSync } from "node:fs";
import { sql } from "drizzle-orm";
import { parseConfig } from "../server/config.ts";
import { openDatabase } from "../server/db/client.ts";
import { fillHistory, historyProgressText } from "../server/seed/history.ts";
import { emptyDatabase, seedDemo } from "../server/seed/index.ts";
import { refuseTestCost } from "../server/services/passwords.ts";

refuseTestCost("seed the demo");
const config = parseConfig(process.env);
if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : config.dataDir;
console.log(`Re-seeding demo data in ${where}...`);
const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: config.databaseUrl ? undefined : config.dataDir,
});
await emptyDatabase(database.db);
const now = new Date();
await seedDemo(database.db, { now, sampleDays: config.demoSampleDays });
await fillHistory(database.db, {
  now,
  sampleDays: config.demoSampleDays,
  onProgress: (p) => process.stdout.write(`\r${historyProgressText(p)}\x1b[K`),
  checkpoint: database.kind === "pglite" ? () => database.db.execute(sql`checkpoint`) : undefined,
});
await database.close();
console.log("\nDone.");
