import { defineConfig } from "vitest/config";

// The tests hash passwords at N=2^10, the product at 2^15 (server/services/passwords.ts says
// why; it honours this only under Vitest). Set here, where globalSetup's seeding and the
// workers both read it.
process.env["VITEST_SCRYPT_N"] ??= "1024";

// Unit tests (pure domain, stores) and server tests (Hono app on PGlite or PostgreSQL).
// Playwright specs in tests/e2e are run by Playwright, never by Vitest.
export default defineConfig({
  test: {
    // Both cores: Vitest's default leaves one of this 2-core machine's two idle.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "unit",
          include: ["tests/domain/**/*.test.ts", "tests/api/**/*.test.ts", "tests/stores/**/*.test.ts"],
        },
      },
      {
        test: {
          name: "server",
          include: ["tests/server/**/*.test.ts"],
          globalSetup: ["tests/server/globalSetup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Files share their worker's modules; each opens its own database and app
          // (docs/decisions.md, "Test run time").
          isolate: false,
        },
      },
    ],
  },
});
