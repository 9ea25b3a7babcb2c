import { describe, expect, it } from "vitest";
import { escapeXml, isOneLine, isPlainText } from "../../src/domain/plainText.ts";

describe("plain text", () => {
  it.each([
    ["Cold room 2", true, true],
    ["Kühlraum – Süd 🧊", true, true],
    ["line1\nline2", false, true],
    ["line1\r\nBcc: x@evil.example", false, true],
    ["tab\there", false, true],
    ["Ware\u0001house", false, false],
    ["bell\u0007", false, false],
    ["del\u007f", false, false],
    ["c1\u0085", false, false],
    ["sep\u2028", false, true],
  ])("judges %j: one line %s, plain text %s", (text, oneLine, plain) => {
    expect(isOneLine(text)).toBe(oneLine);
    expect(isPlainText(text)).toBe(plain);
  });

  it.each([
    [`<script>"a" & 'b'</script>`, "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;"],
    ["Ware\u0001house", "Warehouse"],
    ["keep\ttab\nand line", "keep\ttab\nand line"],
    ["lone \ud800 surrogate", "lone  surrogate"],
    ["pair 😀 stays", "pair 😀 stays"],
    ["\uffff\ufffe", ""],
  ])("escapes %j for XML as %j", (text, xml) => {
    expect(escapeXml(text)).toBe(xml);
  });
});
