import { defineConfig } from "vitest/config";

// Unit tests (pure domain, stores) and server tests (Hono app on PGlite or PostgreSQL).
// Playwright specs in tests/e2e are run by Playwright, never by Vitest.
export default defineConfig({
  test: {
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
        },
      },
    ],
  },
});
