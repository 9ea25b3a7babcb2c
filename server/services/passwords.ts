import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { withHashSlot } from "./hashQueue.ts";

export { HASH_BUSY, hashesStarted, hashQueueFull, withHashSlot } from "./hashQueue.ts";

const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(pw, salt, len, opts, (e, k) => (e ? reject(e) : resolve(k))),
  );

/**
 * scrypt is memory-hard: N=2^15, r=8 uses 32 MiB and ~100 ms of a core per hash.
 * Vitest's server tests hash at the N that VITEST_SCRYPT_N names (vitest.config.ts): their
 * ~600 sign-ins spent a third of that suite's time in scrypt. Only under Vitest (VITEST=true),
 * and server/index.ts refuses to start with a lower cost, so no deployment runs with one; a
 * hash below the product's cost that reaches a real database is made again at the next
 * sign-in (`strengthenIfWeaker`). Read at each hash, so a test can ask for the real cost.
 */
export const PRODUCT_N = 32768;
export function scryptN(env: NodeJS.ProcessEnv = process.env): number {
  const wanted = Number(env["VITEST_SCRYPT_N"]);
  return env["VITEST"] === "true" && Number.isInteger(Math.log2(wanted)) && wanted >= 2 ? wanted : PRODUCT_N;
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
 * A password stored at less than the cost hashes are made at now (by an older version, or by
 * the tests) is hashed again with the password just checked, and the new hash handed to
 * `save`. Best effort: a full hash queue or a failed save leaves it for the next sign-in
 * rather than failing this one.
 */
export async function strengthenIfWeaker(
  stored: string,
  password: string,
  save: (stronger: string) => Promise<unknown>,
): Promise<void> {
  const [alg, n, r] = stored.split("$");
  if (alg !== "scrypt" || (Number(n) >= scryptN() && Number(r) >= R)) return;
  try {
    await save(await hashPassword(password));
  } catch {
    /* The next sign-in tries again. */
  }
}

/** Checks a password against a stored hash in constant time. */
export async function verifyPassword(
  password: string,
  stored: string,
  opts: HashOptions = {},
): Promise<boolean> {
  const [alg, n, r, p, salt, key] = stored.split("$");
  if (alg !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await withHashSlot(opts.owner ?? null, () =>
    scrypt(password.normalize("NFKC"), Buffer.from(salt, "base64url"), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: MAXMEM,
    }),
  );
  return timingSafeEqual(actual, expected);
}

/**
 * Checks a password, or, for a missing account or one without a password, spends the same
 * hash on a dummy every time (never a cached result), so timing does not tell which exist.
 */
export async function verifyOrDummy(
  password: string,
  stored: string | null | undefined,
  opts: HashOptions = {},
) {
  if (stored) return verifyPassword(password, stored, opts);
  await verifyPassword(password, dummyHash(), opts);
  return false;
}
