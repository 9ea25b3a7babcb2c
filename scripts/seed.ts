// `npm run seed`: empties the database named by the environment and seeds the demo data.
// Stop the server first when it uses the embedded database (PGlite allows one process).
import { mkdirSync } from "node:fs";
import { parseConfig } from "../server/config.ts";
import { openDatabase } from "../server/db/client.ts";
import { emptyDatabase, seedDemo } from "../server/db/seed/index.ts";

const config = parseConfig(process.env);
if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : config.dataDir;
console.log(`Re-seeding demo data in ${where}...`);
const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: config.databaseUrl ? undefined : config.dataDir,
});
await emptyDatabase(database.db);
await seedDemo(database.db, { now: new Date(), sampleDays: config.demoSampleDays });
await database.close();
console.log("Done.");
