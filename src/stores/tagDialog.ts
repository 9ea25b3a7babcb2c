import { computed, map } from "nanostores";
import { applyTags, createTag, type EntityTags, type Tag } from "../api/tags.ts";
import type { EntityType } from "../domain/enums.ts";
import {
  filterTagsByPrefix,
  initialTagChecks,
  nextTagCheck,
  TAG_APPLY_FAILED,
  TAG_CREATE_FAILED,
  tagChanges,
  tagNameError,
  tagNameTaken,
  type TagCheck,
} from "../domain/tags.ts";
import { formStore, formTask, showErrors } from "./formTask.ts";
import { call, RequestFailure } from "./http.ts";
import { $tags, activeSubscriptionId, loadTags, tagFailure, tagList } from "./tags.ts";

/** What the Update Tags dialog is about: the entities and which tags they carry. */
export interface TagTarget {
  entityType: (typeof EntityType)["DEVICE"];
  entityIds: number[];
  /** Tags on every entity: checked. */
  appliedTagIds: number[];
  /** Tags on some of several entities: indeterminate. */
  partialTagIds?: number[] | undefined;
}

interface DialogState {
  target: TagTarget;
  /** Boxes the person pressed, by tag id; the others keep their opening state. */
  pressed: Record<string, TagCheck>;
  query: string;
}

const NOBODY: TagTarget = { entityType: 3, entityIds: [], appliedTagIds: [] };

/** The open Update Tags dialog. */
export const $tagDialog = map<DialogState>({ target: NOBODY, pressed: {}, query: "" });
/** Create tag: busy and the message. */
export const $tagCreate = formStore();
/** Apply Changes: busy and the message. */
export const $tagApply = formStore();

/** Starts the dialog afresh for the entities (its rows load the tags as they show). */
export function openTagDialog(target: TagTarget) {
  $tagDialog.set({ target, pressed: {}, query: "" });
  $tagCreate.set({ busy: false, errors: [] });
  $tagApply.set({ busy: false, errors: [] });
}

/** Every box's state now: pressed, else as the dialog opened. */
function states(tags: readonly Tag[], d: DialogState) {
  const initial = initialTagChecks(
    tags.map((t) => t.id),
    d.target.appliedTagIds,
    d.target.partialTagIds,
  );
  const now = new Map(initial);
  for (const [id, state] of Object.entries(d.pressed)) if (now.has(Number(id))) now.set(Number(id), state);
  return { initial, now };
}

/** The rows the dialog shows: tags matching the search by prefix, each with its box's state. */
export const $tagRows = computed([$tags, $tagDialog], (tags, d) => {
  const list = tags.status === "ready" ? tags.list : [];
  const { now } = states(list, d);
  return filterTagsByPrefix(list, d.query).map((tag) => ({ tag, state: now.get(tag.id) ?? "unchecked" }));
});

/** Create is disabled while the typed name is a tag already (case-insensitive) or blank. */
export const $canCreate = computed([$tags, $tagDialog], (tags, d) => {
  const list = tags.status === "ready" ? tags.list : [];
  return d.query.trim() !== "" && !tagNameTaken(d.query, list);
});

export function setTagQuery(query: string) {
  $tagDialog.setKey("query", query);
}

/** A press on a tag's box: the spec's cycle (checked → unchecked → …, see nextTagCheck). */
export function pressTag(id: number) {
  const d = $tagDialog.get();
  const { initial, now } = states(tagList(), d);
  const current = now.get(id);
  if (!current) return;
  $tagDialog.setKey("pressed", { ...d.pressed, [id]: nextTagCheck(current, initial.get(id)!) });
}

/** Creates the typed name as a tag and checks it; the server's message or the spec's on failure. */
export async function createTagFromQuery(): Promise<boolean> {
  const name = $tagDialog.get().query.trim();
  const problem = tagNameError(name);
  if (problem) {
    showErrors($tagCreate, [{ field: "name", message: problem }]);
    return false;
  }
  if (tagNameTaken(name, tagList())) return false;
  return formTask($tagCreate, async () => {
    let id: number;
    try {
      ({ id } = await call(createTag, {
        subscriptionId: activeSubscriptionId(),
        tag: { name, alertTagList: [], deviceTagList: [] },
      }));
    } catch (e) {
      throw tagFailure(e, TAG_CREATE_FAILED);
    }
    await loadTags();
    const d = $tagDialog.get();
    $tagDialog.setKey("pressed", { ...d.pressed, [id]: "checked" });
  });
}

/**
 * Apply Changes: sends the chosen and removed lists for the entities; resolves with each
 * entity's tags afterwards, or null when it failed (the spec's message is shown).
 */
export async function applyTagChanges(): Promise<EntityTags[] | null> {
  const d = $tagDialog.get();
  const { initial, now } = states(tagList(), d);
  let result: EntityTags[] | null = null;
  await formTask($tagApply, async () => {
    try {
      const answer = await call(applyTags, {
        entityType: d.target.entityType,
        entityIdList: d.target.entityIds,
        ...tagChanges(now, initial),
      });
      result = answer.entityList;
    } catch {
      throw new RequestFailure([{ field: null, message: TAG_APPLY_FAILED }]);
    }
    // Device counts changed.
    void loadTags();
  });
  return result;
}
