import { describe, expect, it } from "vitest";
import {
  initialTagChecks,
  nextTagCheck,
  splitTagNames,
  TAG_NAME_ERROR,
  tagChanges,
  tagNameError,
  tagNameHasControl,
  tagNameTakenMessage,
  type TagCheck,
} from "../../src/domain/tags.ts";

describe("the tag modal's boxes (spec section 4)", () => {
  it.each<[TagCheck, TagCheck, TagCheck]>([
    // state, how it opened, next
    ["checked", "checked", "unchecked"],
    ["unchecked", "checked", "checked"],
    ["unchecked", "unchecked", "checked"],
    ["checked", "unchecked", "unchecked"],
    ["indeterminate", "indeterminate", "checked"],
    ["checked", "indeterminate", "unchecked"],
    ["unchecked", "indeterminate", "indeterminate"],
  ])("goes from %s (opened %s) to %s", (state, initial, next) => {
    expect(nextTagCheck(state, initial)).toBe(next);
  });

  it("opens with applied tags checked, tags on some entities indeterminate, the rest unchecked", () => {
    expect([...initialTagChecks([1, 2, 3], [1], [2])]).toEqual([
      [1, "checked"],
      [2, "indeterminate"],
      [3, "unchecked"],
    ]);
  });

  it("sends checked tags as chosen and unchecked ones that were on an entity as removed", () => {
    const initial = initialTagChecks([1, 2, 3, 4, 5], [1, 2], [3]);
    const now = new Map<number, TagCheck>([
      [1, "checked"],
      [2, "unchecked"],
      [3, "unchecked"],
      [4, "checked"],
      [5, "unchecked"],
    ]);
    expect(tagChanges(now, initial)).toEqual({ tagIdList: [1, 4], removedTagIdList: [2, 3] });
    expect(tagChanges(initial, initial)).toEqual({ tagIdList: [1, 2], removedTagIdList: [] });
  });
});

describe("tag names", () => {
  it("counts characters as a person does (an emoji is one)", () => {
    expect(tagNameError("😀".repeat(100))).toBeNull();
    expect(tagNameError("😀".repeat(101))).toBe(TAG_NAME_ERROR);
  });

  it("finds line breaks and control characters", () => {
    expect(["a\nb", "a\tb", "a\u0085b", "a\u2028b"].map(tagNameHasControl)).toEqual([true, true, true, true]);
    expect(tagNameHasControl("Cold room — 2 °C")).toBe(false);
    // Invisible characters: a name that looks empty, or like another, or reads backwards.
    for (const hidden of ["\u200b", "Lab\u200b", "Freezer\u200d", "\u2060\u200b", "\u202eevil", "\ufeffLab"])
      expect(tagNameHasControl(hidden), JSON.stringify(hidden)).toBe(true);
    // The joiner inside an emoji sequence is part of the emoji.
    expect(tagNameHasControl("Lab 👩\u200d🔬 and 🏳️\u200d🌈")).toBe(false);
  });

  it("splits several names typed at once", () => {
    expect(splitTagNames(" Lab, Freezer ,\nCold room,, ")).toEqual(["Lab", "Freezer", "Cold room"]);
  });

  it("says which name is taken", () => {
    expect(tagNameTakenMessage(" Lab ")).toBe('A tag named "Lab" already exists.');
  });
});
