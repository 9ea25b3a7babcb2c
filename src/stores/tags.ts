import { atom, map, onMount } from "nanostores";
import { listDevices, type DeviceListItem } from "../api/devices.ts";
import {
  createTags as createTagsCall,
  deleteTag as deleteTagCall,
  listTags,
  updateTag,
  type EntityTags,
  type Tag,
} from "../api/tags.ts";
import type { FieldError } from "../api/errors.ts";
import { titleToSave } from "../domain/labels.ts";
import { roleMay, type Action } from "../domain/permissions.ts";
import { isRoleId } from "../domain/roles.ts";
import { splitTagNames, tagNameError, tagNameTaken, tagNameTakenMessage } from "../domain/tags.ts";
import { formStore, formTask, showErrors } from "./formTask.ts";
import { call, errorsOf, RequestFailure } from "./http.ts";
import { $session } from "./session.ts";

export const RENAME_FAILED = "Unexpected error renaming tag. Please try again.";
export const DELETE_FAILED = "Unexpected error deleting tag. Please try again.";
export const CREATE_TAGS_FAILED = "Unexpected error saving new tags. Please try again.";

export type TagsState =
  { status: "loading" } | { status: "failed"; message: string } | { status: "ready"; list: Tag[] };

/**
 * The active subscription's tags, by name; asked for again each time something starts showing
 * them (the tags page, the dialog opening), so a tag made elsewhere or another subscription
 * chosen meanwhile shows. The list already loaded stays on screen while the answer comes.
 */
export const $tags = atom<TagsState>({ status: "loading" });

onMount($tags, () => {
  void loadTags();
});

/** Asks for the tags again (after a change, or to retry). */
export async function loadTags() {
  try {
    $tags.set({ status: "ready", list: await call(listTags) });
  } catch (e) {
    $tags.set({ status: "failed", message: errorsOf(e)[0]?.message ?? "" });
  }
}

/** The tags as loaded, or none yet. */
export const tagList = (): Tag[] => {
  const state = $tags.get();
  return state.status === "ready" ? state.list : [];
};

/** May the signed-in person do the action in the active subscription (the server decides too)? */
export function sessionMay(action: Action): boolean {
  const session = $session.get();
  if (session.status !== "signedIn") return false;
  const role = session.info.activeSubscription.role.id;
  return isRoleId(role) && roleMay(role, action);
}

/** The active subscription's id, which new tags must name. */
export function activeSubscriptionId(): number {
  const session = $session.get();
  if (session.status !== "signedIn") throw new RequestFailure([{ field: null, message: "Not signed in." }]);
  return session.info.activeSubscriptionId;
}

/**
 * The server's own word on a tag name (a field error: too long, taken), else `fallback`: a
 * network failure or a server error says nothing a person can act on.
 */
export function tagFailure(e: unknown, fallback: string): RequestFailure {
  const named = errorsOf(e).find((err) => err.field !== null);
  return new RequestFailure([{ field: null, message: named?.message ?? fallback }]);
}

/** Each row's failure (a rename refused, a delete failed), by tag id. */
export const $tagRowErrors = map<Record<string, string | undefined>>({});
/** The tags page's "Add tags" form. */
export const $newTags = formStore();
/** The delete confirmation. */
export const $tagDelete = formStore();

/** The tag whose rename was saved last (its row says so until it is edited again). */
export const $tagSaved = atom<number | null>(null);

/** Saves a tag's new name when it is non-empty and changed (trimmed); true when nothing is left to do. */
export async function renameTag(id: number, draft: string): Promise<boolean> {
  const tag = tagList().find((t) => t.id === id);
  const name = tag ? titleToSave(draft, tag.name) : null;
  $tagRowErrors.setKey(String(id), undefined);
  if (!tag || name === null) return true;
  const problem = tagNameError(name);
  if (problem) return rowFailed(id, problem);
  try {
    const saved = await call(updateTag, { fields: { name }, patchFields: ["name"] }, { id });
    replaceTag(saved);
    $tagSaved.set(id);
    return true;
  } catch (e) {
    return rowFailed(id, tagFailure(e, RENAME_FAILED).message);
  }
}

function rowFailed(id: number, message: string): false {
  $tagRowErrors.setKey(String(id), message);
  return false;
}

/** Puts a changed tag back in the list, keeping the order by name, and on the devices that carry it. */
function replaceTag(tag: Tag) {
  const list = tagList().map((t) => (t.id === tag.id ? tag : t));
  list.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id);
  $tags.set({ status: "ready", list });
  const devices = $tagDevices.get();
  if (devices.status !== "ready") return;
  const renamed = (d: DeviceListItem) => ({
    ...d,
    tagList: d.tagList.map((t) => (t.id === tag.id ? { ...t, name: tag.name } : t)),
  });
  $tagDevices.set({ status: "ready", list: devices.list.map(renamed) });
}

/** Deletes a tag (it comes off every device); true when it is gone. */
export async function removeTag(id: number): Promise<boolean> {
  return formTask($tagDelete, async () => {
    try {
      await call(deleteTagCall, undefined, { id });
    } catch {
      throw new RequestFailure([{ field: null, message: DELETE_FAILED }]);
    }
    $tags.set({ status: "ready", list: tagList().filter((t) => t.id !== id) });
  });
}

/** Creates the names typed ("Lab, Freezer" or one a line), all or none; true when made. */
export async function addTags(text: string): Promise<boolean> {
  const names = splitTagNames(text);
  const problems = localProblems(names.length ? names : [""]);
  if (problems.length) {
    showErrors($newTags, problems);
    return false;
  }
  return formTask($newTags, async () => {
    try {
      await call(createTagsCall, {
        subscriptionId: activeSubscriptionId(),
        tagList: names.map((name) => ({ name })),
      });
    } catch (e) {
      throw tagFailure(e, CREATE_TAGS_FAILED);
    }
    await loadTags();
  });
}

/** What the browser can tell before asking: lengths and names already in the list. */
function localProblems(names: string[]): FieldError[] {
  const length = names.map(tagNameError).find((m) => m !== null);
  if (length) return [{ field: "names", message: length }];
  const taken = names.find((n) => tagNameTaken(n, tagList()));
  return taken ? [{ field: "names", message: tagNameTakenMessage(taken) }] : [];
}

export type TagDevicesState =
  { status: "loading" } | { status: "failed"; message: string } | { status: "ready"; list: DeviceListItem[] };

/** The subscription's devices with their tags, for the tags page's device rows. */
export const $tagDevices = atom<TagDevicesState>({ status: "loading" });

onMount($tagDevices, () => {
  void loadTagDevices();
});

export async function loadTagDevices() {
  try {
    $tagDevices.set({ status: "ready", list: (await call(listDevices)).deviceList });
  } catch (e) {
    $tagDevices.set({ status: "failed", message: errorsOf(e)[0]?.message ?? "" });
  }
}

/** After Apply Changes: the devices' tags as the server answered them. */
export function showAppliedTags(entities: readonly EntityTags[]) {
  const state = $tagDevices.get();
  if (state.status !== "ready") return;
  const list = state.list.map((d) => {
    const changed = entities.find((e) => e.entityId === d.id);
    return changed ? { ...d, tagList: changed.tagList } : d;
  });
  $tagDevices.set({ status: "ready", list });
}
