// SQL literals for the few statements the portal sends as text rather than with parameters:
// those that ride along with a transaction's COMMIT in one message (client.ts, `withCommit`),
// which the extended protocol's parameters cannot do. The same rules as node-postgres's
// escapeLiteral, with PostgreSQL's standard_conforming_strings on (its default since 9.1).

/** A value a literal can be made of; objects are jsonb. */
export type Literal = string | number | boolean | Date | Record<string, unknown> | null | undefined;

/** A string as a quoted literal: quotes doubled, and backslashes doubled in an E'' literal. */
export function quoted(text: string): string {
  let body = "";
  let backslash = false;
  for (const c of text) {
    if (c === "'") body += "''";
    else if (c === "\\") {
      body += "\\\\";
      backslash = true;
    } else body += c;
  }
  return backslash ? ` E'${body}'` : `'${body}'`;
}

/** One value as SQL text. A number that is not finite is refused, never written as text. */
export function literal(value: Literal): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "string") return quoted(value);
  if (value instanceof Date) return `${quoted(value.toISOString())}::timestamptz`;
  return `${quoted(JSON.stringify(value))}::jsonb`;
}

/** `insert into table (columns) values (literals)`: column names are the code's own, never input. */
export function insertText(table: string, row: Record<string, Literal>): string {
  const columns = Object.keys(row);
  if (!columns.every((c) => /^[a-z_][a-z0-9_]*$/.test(c)) || !/^[a-z_][a-z0-9_]*$/.test(table))
    throw new Error(`not a plain name in insert into ${table}`);
  return `insert into ${table} (${columns.join(", ")}) values (${columns.map((c) => literal(row[c])).join(", ")})`;
}
