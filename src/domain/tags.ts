export const TAG_NAME_MIN = 1;
export const TAG_NAME_MAX = 100;
export const TAG_NAME_ERROR = "Tag must be between 1 and 100 characters long.";
/** Spec section 8: the tag modal's failures. */
export const TAG_APPLY_FAILED = "Unexpected error applying tags. Please try again.";
export const TAG_CREATE_FAILED = "Unexpected error saving new tag. Please try again.";
export const TAG_NAME_CONTROL = "Tag names cannot contain line breaks, control or invisible characters.";

/** Characters as a person counts them (code points: an emoji is one), after trimming. */
const lengthOf = (name: string) => [...name.trim()].length;

/** A new tag name is 1 to 100 characters; returns the spec's message or null. */
export function tagNameError(name: string): string | null {
  const n = lengthOf(name);
  return n < TAG_NAME_MIN || n > TAG_NAME_MAX ? TAG_NAME_ERROR : null;
}

/**
 * Line breaks, tabs and other control characters have no place in a one-line name, nor do
 * invisible format characters (zero-width spaces, bidi overrides): they make a name that looks
 * empty, or like another one ('Lab\u200b' beside 'Lab'). The joiner inside an emoji sequence
 * is part of the emoji and stays.
 */
export function tagNameHasControl(name: string): boolean {
  // oxlint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) return true;
  const emojiJoinersOut = name.replace(
    /(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu,
    "",
  );
  return /\p{Cf}/u.test(emojiJoinersOut);
}

/** The message a second tag of the same name gets (names are unique case-insensitively). */
export function tagNameTakenMessage(name: string): string {
  return `A tag named "${name.trim()}" already exists.`;
}

/** Create is disabled when a tag with the same name exists (case-insensitive). */
export function tagNameTaken(name: string, existing: readonly { name: string }[]): boolean {
  const wanted = name.trim().toLowerCase();
  return existing.some((t) => t.name.trim().toLowerCase() === wanted);
}

/** Tag search filters by prefix, case-insensitive. */
export function filterTagsByPrefix<T extends { name: string }>(tags: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  return tags.filter((t) => t.name.toLowerCase().startsWith(q));
}

/**
 * A tag's box in the Update Tags dialog: on every entity, on none, or on some of several
 * entities (indeterminate: left as it is on each).
 */
export type TagCheck = "checked" | "unchecked" | "indeterminate";

/**
 * The next state of a box when pressed (spec section 4): indeterminate or unchecked becomes
 * checked, checked becomes unchecked (the tag goes to the removed list). A tag that started
 * indeterminate cycles on through indeterminate again — checked, unchecked, indeterminate —
 * so "leave it as it is on each" can be chosen back; any other tag toggles.
 */
export function nextTagCheck(state: TagCheck, initial: TagCheck): TagCheck {
  if (state === "checked") return "unchecked";
  if (state === "unchecked" && initial === "indeterminate") return "indeterminate";
  return "checked";
}

/** The boxes as the dialog opens: applied tags checked, tags on some entities indeterminate. */
export function initialTagChecks(
  tagIds: readonly number[],
  appliedTagIds: readonly number[],
  partialTagIds: readonly number[] = [],
): Map<number, TagCheck> {
  const applied = new Set(appliedTagIds);
  const partial = new Set(partialTagIds);
  return new Map(
    tagIds.map((id): [number, TagCheck] => [
      id,
      applied.has(id) ? "checked" : partial.has(id) ? "indeterminate" : "unchecked",
    ]),
  );
}

/**
 * What Apply Changes sends: the chosen tags (checked) and the removed ones (unchecked after
 * having been on an entity). Indeterminate tags are in neither list and stay as they are.
 */
export function tagChanges(
  states: ReadonlyMap<number, TagCheck>,
  initial: ReadonlyMap<number, TagCheck>,
): { tagIdList: number[]; removedTagIdList: number[] } {
  const tagIdList: number[] = [];
  const removedTagIdList: number[] = [];
  for (const [id, state] of states) {
    if (state === "checked") tagIdList.push(id);
    else if (state === "unchecked" && (initial.get(id) ?? "unchecked") !== "unchecked")
      removedTagIdList.push(id);
  }
  return { tagIdList, removedTagIdList };
}

/** Several names typed at once ("Lab, Freezer" or one per line): trimmed, empty ones left out. */
export function splitTagNames(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((n) => n.trim())
    .filter((n) => n !== "");
}
