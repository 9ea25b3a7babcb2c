// `npm run audit -- verify [--subscription N] [--anchors FILE]... [--require-anchors]`: walks the audit trail's
// chains in the database the environment names (DATABASE_URL, else PGlite in DATA_DIR: stop that
// server first, PGlite allows one process) and names every row that does not fit. Exits 1 when
// one does not, so a cron job or a monitor can alert on it. AUDIT_KEY must be the server's when
// it has one. The chains are also compared with the heads kept outside the database: this
// machine's anchor file (AUDIT_ANCHOR_FILE), and every --anchors file (other instances' anchor
// files, or their logs, where the same lines appear).
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseConfig } from "../server/config.ts";
import { openDatabase } from "../server/db/client.ts";
import { verifyAudit } from "../server/flows/auditVerify.ts";
import type { AuditAnchor } from "../server/core/auditChain.ts";
import { readAnchors } from "../server/services/auditAnchors.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    subscription: { type: "string" },
    anchors: { type: "string", multiple: true },
    "require-anchors": { type: "boolean" },
  },
});
if (positionals[0] !== "verify") {
  console.error("Usage: npm run audit -- verify [--subscription N] [--anchors FILE]... [--require-anchors]");
  process.exit(2);
}
const only = values.subscription === undefined ? undefined : Number(values.subscription);
if (only !== undefined && (!/^\d+$/.test(values.subscription!.trim()) || !Number.isSafeInteger(only))) {
  console.error("--subscription takes a subscription's number.");
  process.exit(2);
}
const config = parseConfig(process.env);
const anchorFiles = [
  ...(config.auditAnchorFile && existsSync(config.auditAnchorFile) ? [config.auditAnchorFile] : []),
  ...(values.anchors ?? []),
];
let unmarked = 0;
const anchors: AuditAnchor[] = [];
for (const file of anchorFiles) {
  try {
    const read = await readAnchors(file, config.auditKey);
    unmarked += read.unmarked;
    anchors.push(...read.anchors);
  } catch (e) {
    console.error(`Cannot read ${file}: ${(e as Error).message}`);
    process.exit(2);
  }
}
const database = await openDatabase(
  config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir },
);
try {
  const started = performance.now();
  const result = await verifyAudit(database.db, { subscriptionId: only, key: config.auditKey, anchors });
  const ms = Math.round(performance.now() - started);
  console.log(`Checked ${result.rows.toLocaleString("en-US")} rows in ${result.chains} chains (${ms} ms).`);
  console.log(
    anchors.length
      ? `Compared with ${anchors.length.toLocaleString("en-US")} heads kept outside the database (${anchorFiles.join(", ")}).`
      : "No heads kept outside the database were found: a chain cut back or chained again cannot be named.",
  );
  if (unmarked)
    console.log(
      `Passed over ${unmarked.toLocaleString("en-US")} anchor lines without this AUDIT_KEY's mark (written under another key, or not by a portal).`,
    );
  for (const f of result.faults.slice(0, 50))
    console.log(`  subscription ${f.subscriptionId}, row ${f.seq}: ${f.why}`);
  if (result.faults.length > 50) console.log(`  ... and ${result.faults.length - 50} more`);
  if (result.faults.length) {
    const first = result.faults[0]!;
    console.log(
      `NOT INTACT: the first row that does not fit is subscription ${first.subscriptionId}, row ${first.seq}.`,
    );
    process.exitCode = 1;
  } else if (!anchors.length && values["require-anchors"]) {
    console.log("NOT CHECKED: --require-anchors, and no head kept outside the database was found.");
    process.exitCode = 1;
  } else console.log("Intact: every row fits its chain.");
} finally {
  await database.close();
}
