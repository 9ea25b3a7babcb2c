// `npm run saml -- --name <config> --subscription <id or name> --entry-point <url>
//   --idp-issuer <entity id> --idp-cert <file.pem>`: connects a subscription to its SAML
// identity provider (or updates the connection); `npm run saml -- --list` shows them.
// Stop the server first when it uses the embedded database (PGlite allows one process).
import { mkdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { parseConfig } from "../server/config.ts";
import { openDatabase } from "../server/db/client.ts";
import { samlConfigs, subscriptions } from "../server/db/schema/index.ts";
import { saveSamlConfig } from "../server/data/saml.ts";

const { values } = parseArgs({
  options: {
    name: { type: "string" },
    subscription: { type: "string" },
    "entry-point": { type: "string" },
    "idp-issuer": { type: "string" },
    "idp-cert": { type: "string" },
    list: { type: "boolean" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const config = parseConfig(process.env);
if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: config.databaseUrl ? undefined : config.dataDir,
});
try {
  const { db } = database;
  if (values.list) {
    for (const row of await db.select().from(samlConfigs))
      console.log(`${row.name}\tsubscription ${row.subscriptionId}\t${row.entryPoint}\t${row.issuer}`);
  } else {
    const {
      name,
      subscription,
      "entry-point": entryPoint,
      "idp-issuer": issuer,
      "idp-cert": certFile,
    } = values;
    if (!name || !subscription || !entryPoint || !issuer || !certFile)
      fail("Give --name, --subscription, --entry-point, --idp-issuer and --idp-cert (or --list).");
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) fail("--name may hold letters, digits, - and _ only.");
    if (!URL.canParse(entryPoint)) fail("--entry-point must be the provider's sign-in URL.");
    const idpCert = readFileSync(certFile, "utf8");
    if (!idpCert.includes("BEGIN CERTIFICATE")) fail("--idp-cert must be a PEM certificate file.");
    const [sub] = await db
      .select()
      .from(subscriptions)
      .where(
        /^\d+$/.test(subscription)
          ? eq(subscriptions.id, Number(subscription))
          : eq(subscriptions.name, subscription),
      );
    if (!sub) fail(`No subscription "${subscription}".`);
    await saveSamlConfig(db, { name, subscriptionId: sub.id, entryPoint, issuer, idpCert });
    console.log(`"${sub.name}" now signs in through ${entryPoint} as /auth/saml/login/${name}.`);
  }
} finally {
  await database.close();
}
