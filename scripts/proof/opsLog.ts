// The operations proof's look at a server's log (LOG_REQUESTS=1): one well-formed JSON line
// per request, and none of the secrets the requests carried.

export interface LogCheck {
  /** Request lines, without the start-up probes (/healthz) and the live sockets (/ws). */
  requests: number;
  /** Lines with the time, level, request id, method, route pattern, status and duration. */
  wellFormed: number;
  /** Lines that began like a request line and were not one. */
  malformed: number;
  /** Names of the secrets found in a request line. */
  secretsFound: string[];
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

/** Reads the request lines of `text` and looks for each secret in them. */
export function checkLog(text: string, secrets: Record<string, string>): LogCheck {
  const lines = text.split("\n").filter((l) => l.startsWith("{"));
  const check: LogCheck = { requests: 0, wellFormed: 0, malformed: 0, secretsFound: [] };
  for (const line of lines) {
    const entry = parse(line);
    if (!entry) {
      check.malformed++;
      continue;
    }
    if (entry["route"] === "/healthz" || entry["route"] === "/ws") continue;
    check.requests++;
    if (FIELDS.every(([name, type]) => typeof entry[name] === type) && entry["requestId"] !== "")
      check.wellFormed++;
  }
  const requestLines = lines.join("\n");
  check.secretsFound = Object.entries(secrets)
    .filter(([, value]) => value && requestLines.includes(value))
    .map(([name]) => name);
  return check;
}
