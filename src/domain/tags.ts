export const TAG_NAME_MIN = 1;
export const TAG_NAME_MAX = 100;
export const TAG_NAME_ERROR = "Tag must be between 1 and 100 characters long.";

/** A new tag name is 1 to 100 characters; returns the spec's message or null. */
export function tagNameError(name: string): string | null {
  const n = name.trim().length;
  return n < TAG_NAME_MIN || n > TAG_NAME_MAX ? TAG_NAME_ERROR : null;
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
