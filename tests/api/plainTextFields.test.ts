import { describe, expect, test } from "vitest";
import * as z from "zod/mini";
import { acknowledgeAlarm, NOTE_CONTROL } from "../../src/api/alarms.ts";
import { addChartComment, COMMENT_LINE } from "../../src/api/chartMarks.ts";
import { DEVICE_NAME_LINE, updateDevice } from "../../src/api/devices.ts";
import { NAME_LINE, ReportInputSchema } from "../../src/api/reportBuilder.ts";

// Free text that lands in SVGs, PDFs and mails (the attack review of 2026-11-29): names and
// comments are one line, notes may break lines, and no control character gets through.
const firstMessage = (schema: z.ZodMiniType, value: unknown) => {
  const r = z.safeParse(schema, value);
  return r.success ? null : r.error.issues[0]?.message;
};

describe("plain text fields", () => {
  test.each(["Ware\u0001house", "two\nlines", "Bcc\r\nx"])("refuses the device name %j", (name) => {
    expect(firstMessage(updateDevice.request, { name })).toBe(DEVICE_NAME_LINE);
  });

  test("takes a device name in any script, with an emoji", () => {
    expect(firstMessage(updateDevice.request, { name: "Kühlraum Süd 🧊" })).toBeNull();
  });

  test.each(["door\u0000open", "door\nopen"])("refuses the comment %j", (text) => {
    const comment = { channelKey: "00:1A:2B:3C:4D:01_W1A001_1200_0_1", at: 1_800_000_000, text };
    expect(firstMessage(addChartComment.request, comment)).toBe(COMMENT_LINE);
  });

  test("takes a note over lines and refuses one with a control character", () => {
    expect(firstMessage(acknowledgeAlarm.request, { note: "Door open.\nClosed at 10:05." })).toBeNull();
    expect(firstMessage(acknowledgeAlarm.request, { note: "Door\u0007open" })).toBe(NOTE_CONTROL);
  });

  test("refuses a report name with a line break", () => {
    const report = { name: "Lab\nClimate", timeInterval: 86_400, channels: [] };
    const messages = z.safeParse(ReportInputSchema, report).error?.issues.map((i) => i.message);
    expect(messages).toContain(NAME_LINE);
  });
});
