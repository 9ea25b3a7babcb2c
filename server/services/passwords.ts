import { randomBytes, timingSafeEqual } from "node:crypto";
import { hashesWaiting, withHashSlot } from "./hashQueue.ts";
import { scryptOnThread as scrypt } from "./hashThreads.ts";

export { HASH_BUSY, hashesStarted, hashesWaiting, hashQueueFull, withHashSlot } from "./hashQueue.ts";

/**
 * scrypt is memory-hard: N=2^15, r=8 uses 32 MiB and ~100 ms of a core per hash.
 * Vitest's server tests hash at the N that VITEST_SCRYPT_N names (vitest.config.ts): their
 * ~600 sign-ins spent a third of that suite's time in scrypt. Only under Vitest (VITEST=true),
 * and server/index.ts refuses to start with a lower cost, so no deployment runs with one; a
 * hash below the product's cost that reaches a real database is made again at the next
 * sign-in (`strengthenIfWeaker`). Read at each hash, so a test can ask for the real cost.
 */
export const PRODUCT_N = 32768;
/** The least cost a hash is ever made or checked at (the tests'). */
const LEAST_N = 1024;
export function scryptN(env: NodeJS.ProcessEnv = process.env): number {
  const wanted = Number(env["VITEST_SCRYPT_N"]);
  return env["VITEST"] === "true" && Number.isInteger(Math.log2(wanted)) && wanted >= LEAST_N
    ? wanted
    : PRODUCT_N;
}

/**
 * For what writes hashes outside Vitest (the portal, the seed script): stops the process
 * when the environment lowers the cost, so no stored hash is made at the tests' cost.
 */
export function refuseTestCost(what: string) {
  if (scryptN() === PRODUCT_N) return;
  console.error(
    `VITEST_SCRYPT_N lowers the password hash's cost for the tests only: unset it (or VITEST) to ${what}.`,
  );
  process.exit(2);
}
const R = 8,
  P = 1,
  LEN = 32;
const MAXMEM = 64 * 1024 * 1024;

/**
 * A well-formed hash that no password matches (its key is all zeros): checking a password
 * against it costs exactly what a real check costs, for addresses without a password.
 */
const dummyHash = () => ["scrypt", scryptN(), R, P, "A".repeat(22), "A".repeat(43)].join("$");

/** Who asks for a check (e.g. "user:7"): one running check per owner, more are refused. */
export interface HashOptions {
  owner?: string | null;
}

/** Hashes a password as scrypt$N$r$p$salt$key. */
export async function hashPassword(password: string, opts: HashOptions = {}): Promise<string> {
  const salt = randomBytes(16);
  // Read once: the stored N must be the one the key was made with.
  const n = scryptN();
  const key = await withHashSlot(opts.owner ?? null, () =>
    scrypt(password.normalize("NFKC"), salt, LEN, { N: n, r: R, p: P, maxmem: MAXMEM }),
  );
  return ["scrypt", n, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/**
 * A stored hash's parameters, or null when it is not one this portal makes (treated as no
 * password): N from the tests' 2^10 to the product's 2^15, r = 8, p = 1, a 16-byte salt and
 * a 32-byte key. Nothing costlier than the product's own hash is ever checked, so no stored
 * row can hold a hash place for long, pass the memory limit or take longer to refuse.
 */
function parse(stored: string) {
  const [alg, n, r, p, salt, key, extra] = stored.split("$");
  const [N, R_, P_] = [Number(n), Number(r), Number(p)];
  const saltBytes = Buffer.from(salt ?? "", "base64url");
  const keyBytes = Buffer.from(key ?? "", "base64url");
  const sound =
    alg === "scrypt" &&
    extra === undefined &&
    Number.isInteger(Math.log2(N)) &&
    N >= LEAST_N &&
    N <= PRODUCT_N &&
    R_ === R &&
    P_ === P &&
    saltBytes.length === 16 &&
    keyBytes.length === LEN;
  return sound ? { N, r: R_, p: P_, salt: saltBytes, key: keyBytes } : null;
}

/** True when a stored hash was made at less than today's cost (checked cheaper than others). */
const weaker = (h: { N: number }) => h.N < scryptN();

/**
 * A password stored at less than the cost hashes are made at now (by an older version, or by
 * the tests) is hashed again with the password just checked, and the new hash handed to
 * `save`. Best effort: while other hashes wait for a place, or when the save fails, it is
 * left for the next sign-in rather than delaying or failing this one.
 */
export async function strengthenIfWeaker(
  stored: string,
  password: string,
  save: (stronger: string) => Promise<unknown>,
): Promise<void> {
  const h = parse(stored);
  if (!h || !weaker(h) || hashesWaiting() > 0) return;
  try {
    await save(await hashPassword(password));
  } catch {
    /* The next sign-in tries again. */
  }
}

/** Checks a password against a sound stored hash in constant time. */
async function check(password: string, h: NonNullable<ReturnType<typeof parse>>, opts: HashOptions) {
  const actual = await withHashSlot(opts.owner ?? null, () =>
    scrypt(password.normalize("NFKC"), h.salt, LEN, { N: h.N, r: h.r, p: h.p, maxmem: MAXMEM }),
  );
  return timingSafeEqual(actual, h.key);
}

/**
 * Checks a password. A missing account, one without a password or with a hash this portal
 * does not make spends the same hash on a dummy every time (never a cached result); a wrong
 * password against a hash made at less than today's cost spends a dummy too. So a refusal
 * takes as long whichever kind of account, or none, the address names.
 */
export async function verifyOrDummy(
  password: string,
  stored: string | null | undefined,
  opts: HashOptions = {},
): Promise<boolean> {
  const h = stored ? parse(stored) : null;
  if (h && (await check(password, h, opts))) return true;
  if (!h || weaker(h)) await check(password, parse(dummyHash())!, opts);
  return false;
}

/** Checks a password against a stored hash in constant time (false for a hash this portal does not make). */
export async function verifyPassword(
  password: string,
  stored: string,
  opts: HashOptions = {},
): Promise<boolean> {
  const h = parse(stored);
  return h ? check(password, h, opts) : false;
}
