// What free text people type may hold (the attack review of 2026-11-29): a control character
// in a device name made the badge's SVG unreadable, and a line break in a note opened a line
// of its own in a mail. One-line fields (names, labels, comments) take no control or line
// separator characters; notes may run over lines. XML escaping drops what XML cannot hold at
// all, for text stored before these rules.

// oxlint-disable-next-line no-control-regex
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// oxlint-disable-next-line no-control-regex
const NOT_PLAIN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const NOT_XML =
  // oxlint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** True for one line of text: no control characters, no line or paragraph separators. */
export const isOneLine = (text: string): boolean => !NOT_ONE_LINE.test(text);

/** True for text that may run over lines: line breaks and tabs are its only control characters. */
export const isPlainText = (text: string): boolean => !NOT_PLAIN.test(text);

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text for an XML attribute or element: the five specials escaped, what XML cannot hold removed. */
export const escapeXml = (text: string): string =>
  text.replace(NOT_XML, "").replace(/[&<>"']/g, (c) => ENTITIES[c]!);
