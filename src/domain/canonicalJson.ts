// JSON with keys sorted at every level: the audit chain hashes a row's content in this form, and
// the trail compares before and after in it, so neither depends on the order keys came in
// (PostgreSQL's jsonb reorders them; a client may send them in any order).

/** A value as JSON text with every object's keys sorted; a Date as its ISO text. */
export function canonical(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
