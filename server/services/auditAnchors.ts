// The audit chains' heads kept outside the database (docs/decisions.md, "Anchors"): someone who
// can write the database can unseal its last rows, move a head back or cut a chain short, and
// the chain alone would still fit. Each instance appends the heads it seals to a file of its
// own and to its log, which the database's writers cannot reach; the check compares the chains
// with them (`npm run audit -- verify --anchors FILE...`, and the Administrators' button with
// this instance's file).
import { mkdirSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { anchorMark, type AnchorSink, type AuditAnchor } from "../core/auditChain.ts";

export interface AuditAnchors extends AnchorSink {
  /** Writes the heads noted since the last write (the timer's work; at shutdown too). */
  flush(): Promise<void>;
  /** The anchors this store has written, and those still waiting. */
  read(): Promise<AuditAnchor[]>;
  /** Stops the timer and writes what waits. */
  close(): Promise<void>;
}

/** What a portal without a file keeps: nothing (tests, the proof's baseline). */
export const noAnchors: AuditAnchors = {
  note() {},
  flush: async () => {},
  read: async () => [],
  close: async () => {},
};

const WHAT = "audit anchor";
const HASH = /^[0-9a-f]{64}$/;

/**
 * The anchors in a text: an anchor file, or a portal's log (its anchor lines are the same JSON
 * among other lines). Lines that are not anchors are passed over; under AUDIT_KEY so are
 * anchors without the key's mark, which are counted in `unmarked`.
 */
export function parseAnchors(text: string, key?: string): { anchors: AuditAnchor[]; unmarked: number } {
  const found: AuditAnchor[] = [];
  let unmarked = 0;
  for (const line of text.split("\n")) {
    if (!line.includes(WHAT)) continue;
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(line.slice(line.indexOf("{")));
    } catch {
      continue;
    }
    const whole = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
    if (
      v["what"] === WHAT &&
      whole(v["subscriptionId"]) &&
      whole(v["seq"]) &&
      whole(v["firstSeq"]) &&
      typeof v["hash"] === "string" &&
      HASH.test(v["hash"]) &&
      typeof v["at"] === "string"
    ) {
      const anchor: AuditAnchor = {
        subscriptionId: v["subscriptionId"] as number,
        seq: v["seq"] as number,
        hash: v["hash"],
        firstSeq: v["firstSeq"] as number,
        at: v["at"],
      };
      if (key && v["mark"] !== anchorMark(anchor, key)) unmarked++;
      else found.push(anchor);
    }
  }
  return { anchors: found, unmarked };
}

const lineOf = (a: AuditAnchor, key: string | undefined) =>
  JSON.stringify({
    what: WHAT,
    subscriptionId: a.subscriptionId,
    seq: a.seq,
    hash: a.hash,
    firstSeq: a.firstSeq,
    at: a.at,
    ...(key ? { mark: anchorMark(a, key) } : {}),
  });

/**
 * Appends each chain's newest head to `path` every `everyMs` (and prints it as a log line), so
 * a busy chain costs one line per period, not one per seal. Rows sealed since the last write
 * are covered by the next one; the check's reach ends at the newest line written.
 */
export function fileAnchors(
  path: string,
  opts: { everyMs: number; log?: boolean; key?: string | undefined },
): AuditAnchors {
  const line = (a: AuditAnchor) => lineOf(a, opts.key);
  mkdirSync(dirname(path), { recursive: true });
  const waiting = new Map<number, AuditAnchor>();
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    const write = async () => {
      if (!waiting.size) return;
      const heads = [...waiting.values()];
      waiting.clear();
      const text = heads.map(line).join("\n") + "\n";
      try {
        const file = await open(path, "a");
        try {
          await file.writeFile(text);
          await file.datasync();
        } finally {
          await file.close();
        }
      } catch (e) {
        // Kept for the next write, unless a newer head of its chain came meanwhile.
        for (const h of heads) if (!waiting.has(h.subscriptionId)) waiting.set(h.subscriptionId, h);
        throw e;
      }
      if (opts.log) for (const h of heads) console.log(line(h));
    };
    // One write at a time, in order; a failed one is logged and leaves the chain of writes usable.
    writing = writing.then(write).catch((e: unknown) => {
      console.error(
        JSON.stringify({ level: "error", what: "audit anchors not written", path, error: String(e) }),
      );
    });
    return writing;
  };
  const timer = setInterval(() => void flush(), opts.everyMs);
  timer.unref();
  return {
    note(anchor) {
      const had = waiting.get(anchor.subscriptionId);
      if (!had || had.seq <= anchor.seq) waiting.set(anchor.subscriptionId, anchor);
    },
    flush,
    async read() {
      await writing;
      let text = "";
      try {
        text = await readFile(path, "utf8");
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      }
      return [...parseAnchors(text, opts.key).anchors, ...waiting.values()];
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
