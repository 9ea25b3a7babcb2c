// The operations proof's look at a server's log (LOG_REQUESTS=1): one well-formed JSON line
// per request, each with its own id, counted by route and status, and none of the secrets
// the requests carried.

export interface LogCheck {
  /** Request lines, without the start-up probes (/healthz) and the live sockets (/ws). */
  requests: number;
  /** Lines with the time, level, request id, method, route pattern, status and duration. */
  wellFormed: number;
  /** Lines that began as JSON and could not be read (torn or cut). */
  malformed: number;
  /** Request ids that more than one line carries. */
  duplicateIds: number;
  /** Request lines by "METHOD route status". */
  byRoute: Record<string, number>;
  /** Names of the secrets found. */
  secretsFound: string[];
}

/**
 * What must not be in the log: `anywhere` in none of its lines; `inRequests` in no request line
 * (the demo's start-up banner prints its password and its order's link on purpose).
 */
export interface Secrets {
  anywhere: Record<string, string>;
  inRequests: Record<string, string>;
}

const FIELDS: [string, string][] = [
  ["time", "string"],
  ["level", "string"],
  ["requestId", "string"],
  ["method", "string"],
  ["route", "string"],
  ["status", "number"],
  ["ms", "number"],
];

const parse = (line: string): Record<string, unknown> | null => {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
};

/** Names of the secrets whose value `text` holds. */
const found = (text: string, secrets: Record<string, string>) =>
  Object.entries(secrets)
    .filter(([, value]) => value && text.includes(value))
    .map(([name]) => name);

/** Reads the request lines of `text` (warnings and errors are JSON lines too) and looks for secrets. */
export function checkLog(text: string, secrets: Secrets): LogCheck {
  const check: LogCheck = {
    requests: 0,
    wellFormed: 0,
    malformed: 0,
    duplicateIds: 0,
    byRoute: {},
    secretsFound: [],
  };
  const ids = new Set<string>();
  const requestLines: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    const entry = parse(line);
    if (!entry) {
      check.malformed++;
      continue;
    }
    if (entry["level"] !== "info" || !("route" in entry)) continue;
    requestLines.push(line);
    if (entry["route"] === "/healthz" || entry["route"] === "/ws") continue;
    check.requests++;
    if (FIELDS.every(([name, type]) => typeof entry[name] === type) && entry["requestId"] !== "")
      check.wellFormed++;
    const id = String(entry["requestId"]);
    if (ids.has(id)) check.duplicateIds++;
    ids.add(id);
    const key = `${String(entry["method"])} ${String(entry["route"])} ${String(entry["status"])}`;
    check.byRoute[key] = (check.byRoute[key] ?? 0) + 1;
  }
  check.secretsFound = [
    ...found(text, secrets.anywhere),
    ...found(requestLines.join("\n"), secrets.inRequests),
  ];
  return check;
}
