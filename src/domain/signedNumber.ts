// A number typed on a phone's decimal keypad, which on an iPhone has no minus key: the field's
// "±" button turns the sign of what was typed (a freezer's limit, a negative adjustment, a
// western longitude), so no one needs the full keyboard for it.

/** The text with its sign turned: "5" → "-5", "-5" → "5", "" → "-" (to type after), "-" → "". */
export function flipSign(text: string): string {
  const t = text.trim();
  if (t.startsWith("-")) return t.slice(1).trimStart();
  if (t.startsWith("+")) return `-${t.slice(1).trimStart()}`;
  // The minus sign of some keyboards and of pasted text counts as a minus too.
  if (t.startsWith("\u2212")) return t.slice(1).trimStart();
  return `-${t}`;
}
