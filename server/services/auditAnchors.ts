// The audit chains' heads kept outside the database (docs/decisions.md, "…and the anchors"): someone who
// can write the database can unseal its last rows, move a head back or cut a chain short, and
// the chain alone would still fit. Each instance appends the heads it seals to a file of its
// own and to its log, which the database's writers cannot reach; the check compares the chains
// with them (`npm run audit -- verify --anchors FILE...`, and the Administrators' button with
// this instance's file).
import { createReadStream, mkdirSync } from "node:fs";
import { open } from "node:fs/promises";
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

const START = `{"what":"${WHAT}"`;

/** The anchor a JSON object is, if it is one (its mark not yet judged). */
function anchorOf(v: Record<string, unknown>): AuditAnchor | null {
  const whole = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
  if (
    v["what"] !== WHAT ||
    !whole(v["subscriptionId"]) ||
    !whole(v["seq"]) ||
    !whole(v["firstSeq"]) ||
    typeof v["hash"] !== "string" ||
    !HASH.test(v["hash"]) ||
    typeof v["at"] !== "string" ||
    Number.isNaN(Date.parse(v["at"]))
  )
    return null;
  return {
    subscriptionId: v["subscriptionId"] as number,
    seq: v["seq"] as number,
    hash: v["hash"],
    firstSeq: v["firstSeq"] as number,
    at: v["at"],
  };
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * The anchor objects in one line: alone, after a collector's prefix, glued after a line a failed
 * write cut short (one anchor line holds no nested braces), or as the whole text of Docker's
 * json-file wrapper (`{"log":"{\"what\":\"audit anchor\",...}\n"}`).
 */
function objectsIn(line: string, depth = 0): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  for (let at = line.indexOf(START); at >= 0; at = line.indexOf(START, at + 1)) {
    const v = parsed(line.slice(at, line.indexOf("}", at) + 1));
    if (v && typeof v === "object") found.push(v as Record<string, unknown>);
  }
  if (found.length || depth > 0) return found;
  // Only a wrapper whose log text IS an anchor line: a text that merely holds one (a web user's
  // input, escaped inside one of the portal's own log lines) is never read as an anchor.
  const outer = parsed(line.slice(Math.max(0, line.indexOf("{"))));
  const text = outer && typeof outer === "object" ? (outer as Record<string, unknown>)["log"] : undefined;
  if (typeof text === "string" && text.startsWith(START)) found.push(...objectsIn(text.trimEnd(), depth + 1));
  return found;
}

/** Collects the anchors of lines fed one by one; under AUDIT_KEY, those without its mark are counted apart. */
function anchorReader(key: string | undefined) {
  const anchors: AuditAnchor[] = [];
  let unmarked = 0;
  return {
    line(line: string) {
      if (!line.includes(WHAT)) return;
      for (const v of objectsIn(line)) {
        const anchor = anchorOf(v);
        if (!anchor) continue;
        if (key && v["mark"] !== anchorMark(anchor, key)) unmarked++;
        else anchors.push(anchor);
      }
    },
    done: () => ({ anchors, unmarked }),
  };
}

/**
 * The anchors in a text: an anchor file, or a portal's log (its anchor lines are the same JSON
 * among other lines). Lines that are not anchors are passed over; under AUDIT_KEY so are
 * anchors without the key's mark, which are counted in `unmarked`.
 */
export function parseAnchors(text: string, key?: string): { anchors: AuditAnchor[]; unmarked: number } {
  const reader = anchorReader(key);
  for (const line of text.split("\n")) reader.line(line);
  return reader.done();
}

/** Longer than any anchor line (about 250 characters): of a longer line only its end is read. */
const LONGEST_LINE = 64 * 1024;

/**
 * The anchors in a file read a piece at a time (an anchor file or a log of any size, even one
 * with no line breaks); none when it is absent and `missingOk`.
 */
export async function readAnchors(
  path: string,
  key?: string,
  opts: { missingOk?: boolean } = {},
): Promise<{ anchors: AuditAnchor[]; unmarked: number }> {
  const reader = anchorReader(key);
  let rest = "";
  try {
    for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20 })) {
      const lines = (rest + (chunk as string)).split("\n");
      rest = lines.pop()!;
      for (const line of lines) reader.line(line.length > LONGEST_LINE ? line.slice(-LONGEST_LINE) : line);
      // Only a line's end can still hold an anchor (glued after a line cut short).
      if (rest.length > LONGEST_LINE) rest = rest.slice(-LONGEST_LINE);
    }
  } catch (e) {
    if (!(opts.missingOk && (e as NodeJS.ErrnoException).code === "ENOENT")) throw e;
  }
  reader.line(rest);
  return reader.done();
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
  /** Heads a later seal went back behind (its chain moved back meanwhile): written as well. */
  let kept: AuditAnchor[] = [];
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    const write = async () => {
      if (!waiting.size && !kept.length) return;
      const heads = [...kept, ...waiting.values()];
      const keptNow = kept;
      kept = [];
      waiting.clear();
      // The log first: it is the second copy, and stays one when the file cannot be written.
      if (opts.log) for (const h of heads) console.log(line(h));
      try {
        const file = await open(path, "a");
        try {
          await file.writeFile(heads.map(line).join("\n") + "\n");
          await file.datasync();
        } finally {
          await file.close();
        }
      } catch (e) {
        // Kept for the next write, unless a newer head of its chain came meanwhile.
        kept = [...keptNow, ...kept];
        for (const h of heads.slice(keptNow.length))
          if (!waiting.has(h.subscriptionId)) waiting.set(h.subscriptionId, h);
        throw e;
      }
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
    note(anchor, from) {
      const had = waiting.get(anchor.subscriptionId);
      // A seal that started behind the head this instance last sealed: the chain went back (a
      // database writer moved its head), so that head is written too and the check can name it.
      if (had && from && (from.seq < had.seq || (from.seq === had.seq && from.hash !== had.hash))) {
        kept.push(had);
        console.warn(
          JSON.stringify({
            level: "warn",
            what: "audit chain went back",
            subscriptionId: anchor.subscriptionId,
            sealedTo: had.seq,
            sealedFrom: from.seq,
          }),
        );
        waiting.set(anchor.subscriptionId, anchor);
      } else if (!had || had.seq <= anchor.seq) waiting.set(anchor.subscriptionId, anchor);
    },
    flush,
    async read() {
      await writing;
      const written = await readAnchors(path, opts.key, { missingOk: true });
      return [...written.anchors, ...kept, ...waiting.values()];
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
