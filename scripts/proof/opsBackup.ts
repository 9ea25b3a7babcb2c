// The operations proof's backup round trip: `npm run backup`'s code on the proof's database
// (with the traffic of the run in it), `npm run restore`'s into a fresh one, and every
// table's row count and checksum compared.
import { mkdirSync, rmSync, statSync } from "node:fs";
import { backup, restore, type TableSum } from "../dbBackup.ts";
import { postgresTarget, type Target } from "./target.ts";

export interface BackupCheck {
  tables: number;
  rows: number;
  /** Tables whose rows and checksum came back the same. */
  equal: number;
  differing: string[];
  bytes: number;
  backupMs: number;
  restoreMs: number;
}

/** Tables that came back with other rows or another checksum (or not at all). */
function compare(before: TableSum[], after: TableSum[]): string[] {
  const restored = new Map(after.map((s) => [s.table, s]));
  const differing = before
    .filter((s) => restored.get(s.table)?.rows !== s.rows || restored.get(s.table)?.md5 !== s.md5)
    .map((s) => s.table);
  const extra = after
    .filter((s) => !before.some((b) => b.table === s.table))
    .map((s) => `${s.table} (extra)`);
  return [...differing, ...extra];
}

/** Backs up `target` (its server stopped), restores it into a fresh database, compares. */
export async function backupRoundTrip(target: Target, work: string): Promise<BackupCheck> {
  mkdirSync(work, { recursive: true });
  const pglite = target.name === "PGlite";
  const file = `${work}/${target.name}-backup.${pglite ? "tar.gz" : "dump"}`;
  const fresh = pglite ? null : await postgresTarget();
  if (!pglite && !fresh) throw new Error("PostgreSQL stopped answering before the restore.");
  try {
    const source = pglite
      ? { dataDir: target.env["DATA_DIR"]! }
      : { url: target.env["DATABASE_URL"]!, dataDir: "" };
    const into = fresh
      ? { url: fresh.env["DATABASE_URL"]!, dataDir: "" }
      : { dataDir: `${work}/pglite-restored` };
    let began = performance.now();
    const before = await backup(source, file);
    const backupMs = performance.now() - began;
    began = performance.now();
    const after = await restore(into, file);
    const restoreMs = performance.now() - began;
    const differing = compare(before, after);
    return {
      tables: before.length,
      rows: before.reduce((n, s) => n + s.rows, 0),
      equal: before.length - differing.filter((t) => !t.endsWith("(extra)")).length,
      differing,
      bytes: statSync(file).size,
      backupMs,
      restoreMs,
    };
  } finally {
    await fresh?.remove();
    rmSync(file, { force: true });
    rmSync(`${work}/pglite-restored`, { recursive: true, force: true });
  }
}
