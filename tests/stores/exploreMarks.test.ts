import { cleanStores } from "nanostores";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  addChartComment,
  COMMENT_REQUIRED,
  COMMENT_TIME,
  deleteChartComment,
} from "../../src/api/chartMarks.ts";
import {
  $commentDraft,
  $commentForm,
  $exploreMarks,
  $mayComment,
  pickCommentTime,
  pinComment,
  removeComment,
} from "../../src/stores/exploreMarks.ts";
import { Role } from "../../src/domain/roles.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { $session } from "../../src/stores/session.ts";
import { fakeApi, fakeNavigation } from "./fakeApi.ts";
import { session } from "./sessions.ts";

const KEY = "001A2B3C4D01_00AA11BB22CC_100_0_1";
const AT = Date.UTC(2026, 10, 22, 15, 30) / 1000;

function signedIn(role: { id: number; name: string; displayName: string }, timezone = "America/New_York") {
  const info = session().sessionInformation;
  const activeSubscription = { ...info.activeSubscription, role };
  $session.set({ status: "signedIn", termsAccepted: true, info: { ...info, timezone, activeSubscription } });
}
const ADMIN = { id: Role.ADMINISTRATOR, name: "ADMIN", displayName: "Administrator" };

let api: ReturnType<typeof fakeApi>;
beforeEach(() => {
  api = fakeApi();
  fakeNavigation(`/s/sensor-data/explore/${KEY}`);
  signedIn(ADMIN);
  $exploreMarks.set({ alarms: [], comments: [] });
  $commentDraft.set({ at: "", text: "" });
  $commentForm.set({ busy: false, errors: [] });
});
afterEach(() => {
  cleanStores($exploreMarks, $mayComment);
  setNavigation(null);
});

describe("pinning a comment on the explore chart", () => {
  test("puts a time clicked on the chart into the form in the person's zone", () => {
    pickCommentTime(AT);
    expect($commentDraft.get().at).toBe("2026-11-22T10:30");
  });

  test("pins the typed text at the picked time and shows it at once", async () => {
    api.on(addChartComment, (fields) => ({
      id: 7,
      channelKey: KEY,
      at: fields["at"] as number,
      text: fields["text"] as string,
      author: "Ada Lovelace",
    }));
    pickCommentTime(AT);
    $commentDraft.setKey("text", "door open for delivery");
    expect(await pinComment(KEY)).toBe(true);
    expect(api.calls(addChartComment)[0]!.fields).toEqual({
      channelKey: KEY,
      at: AT,
      text: "door open for delivery",
    });
    expect($exploreMarks.get().comments).toEqual([
      { id: 7, channelKey: KEY, at: AT, text: "door open for delivery", author: "Ada Lovelace" },
    ]);
    expect($commentDraft.get()).toEqual({ at: "", text: "" });
  });

  test("asks for a time and a text before sending anything", async () => {
    expect(await pinComment(KEY)).toBe(false);
    expect($commentForm.get().errors).toEqual([
      { field: "at", message: COMMENT_TIME },
      { field: "text", message: COMMENT_REQUIRED },
    ]);
    expect(api.calls(addChartComment)).toHaveLength(0);
  });

  test("takes a deleted comment off the chart", async () => {
    api.on(deleteChartComment, { id: 7 });
    $exploreMarks.set({
      alarms: [],
      comments: [{ id: 7, channelKey: KEY, at: AT, text: "x", author: null }],
    });
    await removeComment(7);
    expect($exploreMarks.get().comments).toEqual([]);
  });

  test.each([
    ["Administrator", ADMIN, true],
    ["Manager", { id: Role.MANAGER, name: "MANAGER", displayName: "Manager" }, true],
    ["Viewer", { id: Role.VIEWER, name: "VIEWER", displayName: "Viewer" }, false],
  ])("shows the comment form to the %s: %s", (_, role, may) => {
    signedIn(role);
    expect($mayComment.get()).toBe(may);
  });
});
