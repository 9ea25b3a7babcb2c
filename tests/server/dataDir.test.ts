import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { openDatabase, rows } from "../../server/db/client.ts";

// The demo's year of history once left 480 MB of spent WAL beside 240 MB of data (issue 35).
it("keeps a data folder's write-ahead log near 64 MB, not PGlite's default gigabyte", async () => {
  const dir = mkdtempSync(join(tmpdir(), "portal-wal-"));
  const database = await openDatabase({ dataDir: dir });
  try {
    const [max] = await rows<{ max_wal_size: string }>(database.db, sql`show max_wal_size`);
    const [min] = await rows<{ min_wal_size: string }>(database.db, sql`show min_wal_size`);
    expect([max?.max_wal_size, min?.min_wal_size]).toEqual(["64MB", "32MB"]);
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
