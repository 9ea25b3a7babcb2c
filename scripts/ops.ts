// `npm run ops -- <command>`: the back office's side of the portal.
//   token create --name X | token list | token revoke --id N   (the database itself: stop a
//     server that uses the embedded database first; PGlite allows one process)
//   quote create --file q.json | quote update --id N --file q.json | quote close --id N
//   order ship --id N --carrier UPS --method Ground --tracking 1Z1,1Z2 [--shipped-at epoch]
//   tracking add --number 1Z1 --description "Out for delivery" [--location "Memphis, TN"]
//     [--at epoch] [--signed-by NAME] [--delivered]
//   payment record --order N --amount 125.00 --method Check [--refund] [--reference R] [--at epoch]
// Everything but `token` calls the ops API over HTTP: OPS_URL (default http://127.0.0.1:4321)
// with OPS_TOKEN. Each write sends --key, or a new random Idempotency-Key it prints, so a
// write whose answer was lost can be sent again with the same key and happens once.
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseAmount } from "../src/domain/money.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    id: { type: "string" },
    file: { type: "string" },
    key: { type: "string" },
    carrier: { type: "string" },
    method: { type: "string" },
    tracking: { type: "string" },
    "shipped-at": { type: "string" },
    number: { type: "string" },
    description: { type: "string" },
    location: { type: "string" },
    at: { type: "string" },
    "signed-by": { type: "string" },
    delivered: { type: "boolean" },
    order: { type: "string" },
    amount: { type: "string" },
    refund: { type: "boolean" },
    reference: { type: "string" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** A required option, or a clear stop. */
function need(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== "string" || value === "") fail(`Give --${name}.`);
  return value;
}

const wholeNumber = (name: keyof typeof values) => {
  const text = need(name);
  if (!/^\d{1,10}$/.test(text)) fail(`--${name} must be a whole number.`);
  return Number(text);
};

/** One ops write over HTTP; prints the answer's data, or its messages and exits 1. */
async function send(method: string, path: string, body?: unknown) {
  const base = process.env["OPS_URL"] || "http://127.0.0.1:4321";
  const token =
    process.env["OPS_TOKEN"] ?? fail("Set OPS_TOKEN to an ops token (npm run ops -- token create).");
  const key = values.key ?? randomUUID();
  console.error(`Idempotency-Key: ${key}`);
  const res = await fetch(new URL(path, base), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "idempotency-key": key,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).catch((e: unknown) => fail(`Cannot reach ${base}: ${String(e)}`));
  const answer = (await res.json().catch(() => null)) as { success?: boolean; data?: unknown } | null;
  if (res.ok && answer?.success) return console.log(JSON.stringify(answer.data, null, 2));
  const errors = Array.isArray(answer?.data)
    ? (answer.data as { field: string | null; message: string }[])
    : [];
  for (const e of errors) console.error(e.field ? `${e.field}: ${e.message}` : e.message);
  if (!errors.length) console.error(`HTTP ${res.status}`);
  process.exit(1);
}

const readJson = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    return fail(`${file} is not a readable JSON file: ${String(e)}`);
  }
};

/** The token commands work on the database directly: a token cannot be made over the API. */
async function tokens(action: string | undefined) {
  const { parseConfig } = await import("../server/config.ts");
  const { openDatabase } = await import("../server/db/client.ts");
  const { createOpsToken, listOpsTokens, revokeOpsToken } = await import("../server/data/opsTokens.ts");
  const config = parseConfig(process.env);
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
  const { db, close } = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
  });
  try {
    if (action === "create") {
      const name = need("name").trim().slice(0, 100);
      const { id, token } = await createOpsToken(db, name, new Date());
      console.log(`Token ${id} ("${name}"), shown this once; only its hash is kept:\n${token}`);
    } else if (action === "list") {
      for (const t of await listOpsTokens(db)) {
        const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : "live";
        const used = t.lastUsedAt ? t.lastUsedAt.toISOString() : "never";
        console.log(`${t.id}\t${t.name}\tcreated ${t.createdAt.toISOString()}\tlast used ${used}\t${state}`);
      }
    } else if (action === "revoke") {
      const id = wholeNumber("id");
      if (!(await revokeOpsToken(db, id, new Date()))) fail(`No live token ${id}.`);
      console.log(`Token ${id} is revoked.`);
    } else fail("token create --name X | token list | token revoke --id N");
  } finally {
    await close();
  }
}

const [group, action] = positionals;
const command = `${group ?? ""} ${action ?? ""}`;
const OPS = "/api/v1/ops";
switch (command) {
  case "quote create":
    await send("POST", `${OPS}/quotes`, readJson(need("file")));
    break;
  case "quote update":
    await send("PATCH", `${OPS}/quotes/${wholeNumber("id")}`, readJson(need("file")));
    break;
  case "quote close":
    await send("POST", `${OPS}/quotes/${wholeNumber("id")}/close`);
    break;
  case "order ship":
    await send("POST", `${OPS}/orders/${wholeNumber("id")}/shipments`, {
      carrier: need("carrier"),
      shipMethod: need("method"),
      trackingNumbers: need("tracking")
        .split(",")
        .map((n) => n.trim()),
      ...(values["shipped-at"] === undefined ? {} : { shippedAt: wholeNumber("shipped-at") }),
    });
    break;
  case "tracking add":
    await send("POST", `${OPS}/tracking/${encodeURIComponent(need("number"))}/activity`, {
      occurredAt: values.at === undefined ? Math.floor(Date.now() / 1000) : wholeNumber("at"),
      description: need("description"),
      locationDescription: values.location ?? "",
      ...(values["signed-by"] ? { signedForByName: values["signed-by"] } : {}),
      delivered: values.delivered === true,
    });
    break;
  case "payment record": {
    const amount = parseAmount(need("amount"));
    if (amount === null || amount <= 0) fail("--amount is a positive amount such as 125.00.");
    await send("POST", `${OPS}/orders/${wholeNumber("order")}/payments`, {
      kind: values.refund ? "refund" : "payment",
      amount,
      method: need("method"),
      ...(values.reference ? { reference: values.reference } : {}),
      ...(values.at === undefined ? {} : { receivedAt: wholeNumber("at") }),
    });
    break;
  }
  default:
    if (group === "token") await tokens(action);
    else
      fail(
        "Commands: token create|list|revoke, quote create|update|close, order ship, tracking add, payment record.",
      );
}
