/**
 * PostgreSQL text and jsonb cannot hold U+0000: a query carrying one fails. Such input is
 * refused at the edge with a 400 instead of reaching the database as a 500.
 */
export const NUL_REFUSED = "The request contains a character that is not allowed.";
export const TOO_DEEP = "The request is nested too deeply.";
/**
 * No body of this API nests deeper than a few levels (a device push is four). Anything
 * deeper is refused before zod or our own code walks it, so no walker can run out of stack.
 */
export const MAX_DEPTH = 32;

/**
 * True when the text holds U+0000, a lone surrogate (a JSON '\ud800' no UTF-8 can store) or
 * U+FFFD, which is what the body parsers make of bytes that are not UTF-8 and of a broken
 * %-escape ('Kitchen%C3'): storing it would keep a mangled text instead of refusing it.
 */
export const hasRefusedCharacter = (text: string) =>
  text.includes("\u0000") || text.includes("\ufffd") || !text.isWellFormed();

/**
 * What is wrong with a parsed JSON value: nested deeper than MAX_DEPTH (the top level is 1),
 * a refused character (hasRefusedCharacter) in a key or string, or nothing (null). Walks with its own stack, never recursion,
 * and reports depth first, whatever comes first in the value.
 */
export function jsonProblem(value: unknown): typeof TOO_DEEP | typeof NUL_REFUSED | null {
  const stack: [unknown, number][] = [[value, 1]];
  let nul = false;
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === "string") nul ||= hasRefusedCharacter(v);
    if (v === null || typeof v !== "object") continue;
    if (depth > MAX_DEPTH) return TOO_DEEP;
    if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth + 1]);
      continue;
    }
    for (const [key, item] of Object.entries(v)) {
      nul ||= hasRefusedCharacter(key);
      stack.push([item, depth + 1]);
    }
  }
  return nul ? NUL_REFUSED : null;
}

/** True for an address whose path or query encodes U+0000 (server/http/gate.ts refuses it). */
export const nulInUrl = (url: string) => /%00/i.test(url);
