import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes a new versioned SQL migration from the schema.
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/db/schema/index.ts",
  out: "./server/db/migrations",
});
