import { execFileSync, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hashPassword, scryptN, verifyPassword } from "../../server/services/passwords.ts";

const PRODUCT_N = 32768;

describe("the password hash's cost", () => {
  it("is N=2^15 outside Vitest, whatever VITEST_SCRYPT_N says", () => {
    expect(scryptN({})).toBe(PRODUCT_N);
    expect(scryptN({ VITEST_SCRYPT_N: "1024" })).toBe(PRODUCT_N);
  });

  it("takes a power of two from 2^10 up from VITEST_SCRYPT_N under Vitest only, and 2^15 for anything else", () => {
    expect(scryptN({ VITEST: "true", VITEST_SCRYPT_N: "1024" })).toBe(1024);
    for (const wanted of ["", "1000", "1", "0", "2", "512", "-1024", "1e400", "abc"])
      expect(scryptN({ VITEST: "true", VITEST_SCRYPT_N: wanted })).toBe(PRODUCT_N);
    for (const vitest of ["false", "1", ""])
      expect(scryptN({ VITEST: vitest, VITEST_SCRYPT_N: "1024" })).toBe(PRODUCT_N);
  });

  it("is what a process started without Vitest stores, and such a hash checks here", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, VITEST_SCRYPT_N: "1024" };
    delete env["VITEST"];
    const stored = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        "const m = await import('./server/services/passwords.ts'); console.log(await m.hashPassword('right'))",
      ],
      { env, encoding: "utf8" },
    ).trim();
    expect(stored.split("$").slice(0, 4)).toEqual(["scrypt", String(PRODUCT_N), "8", "1"]);
    // The check reads N from the stored hash: a product's hash works in the tests' process.
    expect(await verifyPassword("right", stored)).toBe(true);
    expect(await verifyPassword("wrong", stored)).toBe(false);
    expect((await hashPassword("right")).split("$")[1]).toBe("1024");
  });

  it("keeps a portal from starting, and the seed script from seeding, with the tests' cost", () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      VITEST: "true",
      VITEST_SCRYPT_N: "1024",
      PORT: "0",
      DEMO: "0",
      DATA_DIR: join(tmpdir(), `portal-cost-${process.pid}`),
    };
    for (const script of ["server/index.ts", "scripts/seed.ts"]) {
      const run = spawnSync(process.execPath, [script], { env, encoding: "utf8", timeout: 30_000 });
      expect(run.status, script).toBe(2);
      expect(run.stderr).toContain("VITEST_SCRYPT_N lowers the password hash's cost for the tests only");
    }
  });
});
