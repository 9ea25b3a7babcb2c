import { randomBytes, scryptSync } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  hashesStarted,
  strengthenIfWeaker,
  verifyOrDummy,
  verifyPassword,
} from "../../server/services/passwords.ts";
import { holdHashPlaces } from "./hashPlaces.ts";

/*
 * Stored hashes come from the database: an old row, a hand edit or a restore can hold one this
 * portal never makes. Such a hash is no password at all, and checking against it costs what
 * any refusal costs.
 */

const salt = randomBytes(16).toString("base64url");
const key = randomBytes(32).toString("base64url");
const made = (n: string, r: string, p: string, s = salt, k = key) => ["scrypt", n, r, p, s, k].join("$");

/** How many hashes a check started. */
async function hashesOf(run: () => Promise<unknown>) {
  const before = hashesStarted();
  await run();
  return hashesStarted() - before;
}

describe("a stored hash this portal does not make", () => {
  it("takes no password, not even with an empty key, and spends one dummy hash instead", async () => {
    for (const stored of [
      made("1024", "8", "1", salt, "A"),
      made("1024", "8", "1", salt, ""),
      made("1024", "8", "1", "", key),
      made("1024", "8", "1", "AAAA", key),
      `${made("1024", "8", "1")}$extra`,
      `bcrypt$1024$8$1$${salt}$${key}`,
    ]) {
      expect(await verifyPassword("anything", stored)).toBe(false);
      expect(await hashesOf(async () => expect(await verifyOrDummy("anything", stored)).toBe(false))).toBe(1);
    }
  });

  it("is refused at once when its cost would take minutes, pass the memory limit or is no number", async () => {
    const started = performance.now();
    for (const [n, r, p] of [
      ["32768", "8", "20000"],
      ["65536", "8", "1"],
      ["32768", "16", "1"],
      ["1024", "512", "1"],
      [String(2 ** 30), "8", "1"],
      ["131072", "8", "1"],
      ["3", "8", "1"],
      ["512", "8", "1"],
      ["abc", "8", "1"],
      ["32768", "0", "1"],
      ["32768", "8", "0"],
      ["32768", "1.5", "1"],
    ]) {
      expect(await verifyPassword("anything", made(n!, r!, p!)), `${n} ${r} ${p}`).toBe(false);
    }
    // Nothing above was hashed: nine impossible checks took less than one at the tests' cost.
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("a stored hash made at less than today's cost", () => {
  // Today's cost four times the least one, so a weaker hash can be sound.
  beforeEach(() => void vi.stubEnv("VITEST_SCRYPT_N", "4096"));
  afterEach(() => void vi.unstubAllEnvs());
  /** A hash at the least cost, 2^10. */
  const weak = (password: string) => {
    const s = randomBytes(16);
    const k = scryptSync(password, s, 32, { N: 1024, r: 8, p: 1 });
    return made("1024", "8", "1", s.toString("base64url"), k.toString("base64url"));
  };

  it("answers a wrong password after a dummy hash at today's cost too, and a right one without", async () => {
    const stored = weak("right");
    expect(await hashesOf(async () => expect(await verifyOrDummy("wrong", stored)).toBe(false))).toBe(2);
    expect(await hashesOf(async () => expect(await verifyOrDummy("right", stored)).toBe(true))).toBe(1);
  });

  it("is made again at today's cost after a right password, unless other hashes wait for a place", async () => {
    const stored = weak("right");
    const saved: string[] = [];
    await strengthenIfWeaker(stored, "right", async (h) => void saved.push(h));
    expect(saved).toHaveLength(1);
    expect(await verifyPassword("right", saved[0]!)).toBe(true);
    // A hash already today's cost is left alone.
    await strengthenIfWeaker(saved[0]!, "right", async (h) => void saved.push(h));
    expect(saved).toHaveLength(1);

    // Every place held and one more waiting: the re-hash is left for the next sign-in.
    const release = holdHashPlaces();
    await strengthenIfWeaker(stored, "right", async (h) => void saved.push(h));
    await release();
    expect(saved).toHaveLength(1);
  });
});
