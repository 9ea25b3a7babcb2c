import { cleanStores } from "nanostores";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { listDevices } from "../../src/api/devices.ts";
import {
  applyTags,
  createTag,
  createTags,
  deleteTag,
  listTags,
  updateTag,
  type Tag,
} from "../../src/api/tags.ts";
import { Role } from "../../src/domain/roles.ts";
import { TAG_APPLY_FAILED, TAG_CREATE_FAILED, TAG_NAME_ERROR } from "../../src/domain/tags.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { $session } from "../../src/stores/session.ts";
import {
  $canCreate,
  $tagApply,
  $tagCreate,
  $tagRows,
  applyTagChanges,
  createTagFromQuery,
  openTagDialog,
  pressTag,
  setTagQuery,
} from "../../src/stores/tagDialog.ts";
import {
  $newTags,
  $tagDelete,
  $tagDevices,
  $tagRowErrors,
  $tags,
  addTags,
  DELETE_FAILED,
  loadTagDevices,
  loadTags,
  removeTag,
  renameTag,
  sessionMay,
  showAppliedTags,
} from "../../src/stores/tags.ts";
import { fakeApi, fakeNavigation } from "./fakeApi.ts";
import { session } from "./sessions.ts";

const SUBSCRIPTION = 7;
const tag = (id: number, name: string, deviceCount = 0): Tag => ({
  id,
  name,
  subscriptionId: SUBSCRIPTION,
  type: "user-defined",
  deviceCount,
});
const TAGS = [tag(1, "Critical", 1), tag(2, "Freezer", 1), tag(3, "Lab", 2), tag(4, "lobby")];
const SERVER_ERROR = { status: 500, errors: [{ field: null, message: "Unexpected error." }] };
const offline = () => {
  throw new TypeError("Failed to fetch");
};

/** Signs Ada in with a role in subscription 7. */
function signedInAs(roleId: number) {
  const info = session().sessionInformation;
  $session.set({
    status: "signedIn",
    termsAccepted: true,
    info: {
      ...info,
      activeSubscriptionId: SUBSCRIPTION,
      activeSubscription: {
        ...info.activeSubscription,
        id: SUBSCRIPTION,
        role: { id: roleId, name: "", displayName: "" },
      },
    },
  });
}

/** Each row of the open dialog as "name:state". */
const rows = () => $tagRows.get().map((r) => `${r.tag.name}:${r.state}`);

let api: ReturnType<typeof fakeApi>;
beforeEach(() => {
  api = fakeApi();
  fakeNavigation("/s/guidance/tags");
  api.on(listTags, TAGS);
  $tags.set({ status: "ready", list: TAGS });
  $tagRowErrors.set({});
  $newTags.set({ busy: false, errors: [] });
  $tagDelete.set({ busy: false, errors: [] });
  signedInAs(Role.ADMINISTRATOR);
});
afterEach(() => {
  // Every test starts with the stores let go of (nothing showing them).
  cleanStores($tags, $tagDevices, $tagRows, $canCreate);
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("the tag list", () => {
  test("loads the active subscription's tags", async () => {
    $tags.set({ status: "loading" });
    await loadTags();
    expect(api.calls(listTags)).toEqual([
      { method: "GET", url: "https://api.test/api/v1/tags", as: "none", fields: {} },
    ]);
    expect($tags.get()).toEqual({ status: "ready", list: TAGS });
  });

  test("asks again each time the tags start showing, keeping the loaded list meanwhile", async () => {
    for (const round of [1, 2]) {
      const off = $tags.listen(() => {});
      expect($tags.get()).toEqual({ status: "ready", list: TAGS });
      await vi.waitFor(() => expect(api.calls(listTags)).toHaveLength(round));
      off();
      // What nanostores does a second after the last listener leaves.
      cleanStores($tags);
    }
  });

  test("says so when the tags cannot be loaded", async () => {
    api.on(listTags, SERVER_ERROR);
    await loadTags();
    expect($tags.get()).toEqual({ status: "failed", message: "Unexpected error." });
  });

  test("lets Administrators and Managers manage tags, not Viewers", () => {
    expect(sessionMay("tag.create")).toBe(true);
    signedInAs(Role.MANAGER);
    expect([sessionMay("tag.create"), sessionMay("tag.apply")]).toEqual([true, true]);
    signedInAs(Role.VIEWER);
    expect([sessionMay("tag.create"), sessionMay("tag.apply")]).toEqual([false, false]);
  });
});

describe("the Update Tags dialog", () => {
  test("opens with the entity's tags checked and the others unchecked", () => {
    openTagDialog({ entityType: 3, entityIds: [10], appliedTagIds: [1, 3] });
    expect(rows()).toEqual(["Critical:checked", "Freezer:unchecked", "Lab:checked", "lobby:unchecked"]);
  });

  test("filters by prefix, whatever the case", () => {
    openTagDialog({ entityType: 3, entityIds: [10], appliedTagIds: [] });
    setTagQuery("L");
    expect(rows()).toEqual(["Lab:unchecked", "lobby:unchecked"]);
    setTagQuery("LA");
    expect(rows()).toEqual(["Lab:unchecked"]);
    setTagQuery("ab");
    expect(rows()).toEqual([]);
  });

  test("cycles a box: checked to unchecked and back to checked", () => {
    openTagDialog({ entityType: 3, entityIds: [10], appliedTagIds: [1] });
    pressTag(1);
    expect(rows()[0]).toBe("Critical:unchecked");
    pressTag(1);
    expect(rows()[0]).toBe("Critical:checked");
    pressTag(2);
    expect(rows()[1]).toBe("Freezer:checked");
  });

  test("cycles a tag on some of several devices through indeterminate: checked, unchecked, indeterminate", () => {
    openTagDialog({ entityType: 3, entityIds: [10, 11], appliedTagIds: [], partialTagIds: [3] });
    expect(rows()[2]).toBe("Lab:indeterminate");
    const states = [1, 2, 3].map(() => {
      pressTag(3);
      return rows()[2];
    });
    expect(states).toEqual(["Lab:checked", "Lab:unchecked", "Lab:indeterminate"]);
  });

  test("sends the chosen and removed lists on Apply Changes and answers each device's tags", async () => {
    const answer = { entityList: [{ entityId: 10, tagList: [{ id: 2, name: "Freezer" }] }] };
    api.on(applyTags, answer);
    openTagDialog({ entityType: 3, entityIds: [10], appliedTagIds: [1, 3] });
    pressTag(1); // checked → unchecked: removed
    pressTag(2); // unchecked → checked: chosen
    expect(await applyTagChanges()).toEqual(answer.entityList);
    expect(api.calls(applyTags)).toEqual([
      {
        method: "POST",
        url: "https://api.test/api/v1/tags/apply",
        as: "json",
        fields: { entityType: 3, entityIdList: [10], tagIdList: [2, 3], removedTagIdList: [1] },
      },
    ]);
    expect($tagApply.get()).toEqual({ busy: false, errors: [] });
  });

  test("leaves a tag on some devices out of both lists while it is indeterminate", async () => {
    api.on(applyTags, { entityList: [] });
    openTagDialog({ entityType: 3, entityIds: [10, 11], appliedTagIds: [1], partialTagIds: [3] });
    await applyTagChanges();
    expect(api.calls(applyTags)[0]!.fields).toMatchObject({ tagIdList: [1], removedTagIdList: [] });
  });

  test.each([
    ["a server error", () => SERVER_ERROR],
    ["a refusal", () => ({ status: 404, errors: [{ field: null, message: "Not found." }] })],
    ["no answer", offline],
  ])("says 'Unexpected error applying tags. Please try again.' after %s", async (_, answer) => {
    api.on(applyTags, answer);
    openTagDialog({ entityType: 3, entityIds: [10], appliedTagIds: [] });
    expect(await applyTagChanges()).toBeNull();
    expect($tagApply.get().errors).toEqual([{ field: null, message: TAG_APPLY_FAILED }]);
  });

  test("disables Create while the name is a tag already, in any case, or blank", () => {
    openTagDialog({ entityType: 3, entityIds: [10], appliedTagIds: [] });
    for (const [query, can] of [
      ["", false],
      ["  ", false],
      ["LAB", false],
      [" lobby ", false],
      ["Lab 2", true],
    ] as const) {
      setTagQuery(query);
      expect([query, $canCreate.get()]).toEqual([query, can]);
    }
  });

  test("creates the typed tag in the active subscription and checks it", async () => {
    api.on(createTag, { id: 9 });
    openTagDialog({ entityType: 3, entityIds: [10], appliedTagIds: [] });
    setTagQuery("  Office ");
    api.on(listTags, [...TAGS, tag(9, "Office")]);
    expect(await createTagFromQuery()).toBe(true);
    expect(api.calls(createTag)[0]!.fields).toEqual({
      subscriptionId: SUBSCRIPTION,
      tag: { name: "Office", alertTagList: [], deviceTagList: [] },
    });
    expect(rows()).toEqual(["Office:checked"]);
  });

  test("refuses a name over 100 characters with the spec's message, without asking", async () => {
    openTagDialog({ entityType: 3, entityIds: [10], appliedTagIds: [] });
    setTagQuery("x".repeat(101));
    expect(await createTagFromQuery()).toBe(false);
    expect($tagCreate.get().errors).toEqual([{ field: "name", message: TAG_NAME_ERROR }]);
    expect(api.calls(createTag)).toEqual([]);
  });

  test.each([
    [
      "the server's message about the name",
      () => ({
        status: 409,
        errors: [{ field: "tag.name", message: 'A tag named "Office" already exists.' }],
      }),
      'A tag named "Office" already exists.',
    ],
    ["the spec's message after a server error", () => SERVER_ERROR, TAG_CREATE_FAILED],
    ["the spec's message with no answer", offline, TAG_CREATE_FAILED],
  ])("shows %s when Create fails", async (_, answer, message) => {
    api.on(createTag, answer);
    openTagDialog({ entityType: 3, entityIds: [10], appliedTagIds: [] });
    setTagQuery("Office");
    expect(await createTagFromQuery()).toBe(false);
    expect($tagCreate.get().errors).toEqual([{ field: null, message }]);
  });
});

describe("the tags page", () => {
  test("renames a tag with its trimmed new name through patchFields", async () => {
    api.on(updateTag, tag(3, "Laboratory", 2));
    expect(await renameTag(3, "  Laboratory ")).toBe(true);
    expect(api.calls(updateTag)).toEqual([
      {
        method: "PATCH",
        url: "https://api.test/api/v1/tags/3",
        as: "json",
        fields: { fields: { name: "Laboratory" }, patchFields: ["name"] },
      },
    ]);
    const state = $tags.get();
    expect(state.status === "ready" && state.list.map((t) => t.name)).toEqual([
      "Critical",
      "Freezer",
      "Laboratory",
      "lobby",
    ]);
  });

  test("saves nothing when the name is empty or unchanged", async () => {
    expect(await renameTag(3, "   ")).toBe(true);
    expect(await renameTag(3, " Lab ")).toBe(true);
    expect(api.calls(updateTag)).toEqual([]);
  });

  test("shows the server's refusal beside the tag", async () => {
    api.on(updateTag, {
      status: 409,
      errors: [{ field: "fields.name", message: 'A tag named "Critical" already exists.' }],
    });
    expect(await renameTag(3, "Critical")).toBe(false);
    expect($tagRowErrors.get()).toEqual({ "3": 'A tag named "Critical" already exists.' });
  });

  test("deletes a tag and drops it from the list; a failure says so", async () => {
    api.on(deleteTag, { id: 2 });
    expect(await removeTag(2)).toBe(true);
    expect(api.calls(deleteTag).map((c) => `${c.method} ${c.url}`)).toEqual([
      "DELETE https://api.test/api/v1/tags/2",
    ]);
    const state = $tags.get();
    expect(state.status === "ready" && state.list.map((t) => t.id)).toEqual([1, 3, 4]);
    api.on(deleteTag, offline);
    expect(await removeTag(3)).toBe(false);
    expect($tagDelete.get().errors).toEqual([{ field: null, message: DELETE_FAILED }]);
  });

  test("adds several tags at once from a comma-separated list", async () => {
    api.on(createTags, [
      { id: 11, name: "North" },
      { id: 12, name: "South" },
    ]);
    expect(await addTags(" North, South ,")).toBe(true);
    expect(api.calls(createTags)[0]!.fields).toEqual({
      subscriptionId: SUBSCRIPTION,
      tagList: [{ name: "North" }, { name: "South" }],
    });
    // The list is asked for again once they are made.
    expect(api.sent.at(-1)).toMatchObject({ method: "GET", url: "https://api.test/api/v1/tags" });
  });

  test("checks names before asking: empty, too long, or already a tag", async () => {
    for (const [text, message] of [
      ["", TAG_NAME_ERROR],
      [`ok, ${"x".repeat(101)}`, TAG_NAME_ERROR],
      ["New, freezer", 'A tag named "freezer" already exists.'],
    ] as const) {
      expect(await addTags(text)).toBe(false);
      expect($newTags.get().errors).toEqual([{ field: "names", message }]);
    }
    expect(api.calls(createTags)).toEqual([]);
  });

  test("lists the devices with their tags and shows what Apply Changes answered", async () => {
    const device = {
      id: 10,
      name: "Lab Base Station",
      type: "RA12",
      deviceType: "RA12",
      tagList: [{ id: 3, name: "Lab" }],
      location: null,
      geocode: null,
      lastMessageTimestamp: null,
      pushInterval: 600,
      status: "pushing" as const,
    };
    api.on(listDevices, { deviceList: [device] });
    await loadTagDevices();
    showAppliedTags([{ entityId: 10, tagList: [{ id: 2, name: "Freezer" }] }]);
    const state = $tagDevices.get();
    expect(state.status === "ready" && state.list[0]!.tagList).toEqual([{ id: 2, name: "Freezer" }]);
  });
});
