import { describe, expect, it } from "vitest";
import { attemptsText, deliveryStateText, type DeliveryState } from "../../src/domain/deliveryText.ts";

const tries = (...details: string[]) => details.map((detail) => ({ detail }));

describe("an alarm notice's delivery in words", () => {
  it.each([
    ["sent", tries("mailed"), "Sent", ""],
    ["sent", tries("421 busy", "mailed"), "Sent", "after 2 attempts"],
    ["queued", tries("421 busy"), "Waiting", "1 attempt, last: 421 busy"],
    ["failed", tries("550 no such user", "550 no such user"), "Failed", "2 attempts, last: 550 no such user"],
    ["queued", [], "Waiting", "0 attempts"],
  ] as [DeliveryState, { detail: string }[], string, string][])(
    "says %s with %j as %s %s",
    (state, attempts, word, detail) => {
      expect(deliveryStateText(state)).toBe(word);
      expect(attemptsText(state, attempts)).toBe(detail);
    },
  );
});
