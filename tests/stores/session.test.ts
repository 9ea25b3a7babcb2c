import { cleanStores } from "nanostores";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { logout } from "../../src/api/gateway.ts";
import { getSession } from "../../src/api/session.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { $session, leaveIfSignedIn, requireSignedIn, signOut } from "../../src/stores/session.ts";
import { fakeApi, fakeNavigation } from "./fakeApi.ts";
import { NOT_SIGNED_IN, session } from "./sessions.ts";

let api: ReturnType<typeof fakeApi>;
beforeEach(() => {
  api = fakeApi();
  cleanStores($session); // unmounted: the next use asks the server again
  $session.set({ status: "loading" });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("session guard", () => {
  test("sends a visitor who is not signed in to sign in, and back to this page afterwards", async () => {
    const visits = fakeNavigation("/s/orders/list?page=2");
    api.on(getSession, NOT_SIGNED_IN);
    expect(await requireSignedIn()).toBeNull();
    expect(visits).toEqual(["/gateway?next=%2Fs%2Forders%2Flist%3Fpage%3D2"]);
    expect($session.get()).toEqual({ status: "anonymous" });
  });

  test("sends a session that has not accepted the terms to accept them first", async () => {
    const visits = fakeNavigation("/user/welcome");
    api.on(getSession, session({ termsAccepted: false }));
    expect(await requireSignedIn()).toBeNull();
    expect(visits).toEqual(["/terms/acknowledge?next=%2Fuser%2Fwelcome"]);
  });

  test("lets a signed-in person who accepted the terms see the page", async () => {
    const visits = fakeNavigation("/s/settings");
    api.on(getSession, session());
    expect(await requireSignedIn()).toMatchObject({ status: "signedIn", info: { firstName: "Ada" } });
    expect(visits).toEqual([]);
  });

  test("asks the server once when the app's guard and a component want the session together", async () => {
    fakeNavigation("/s/settings");
    api.on(getSession, session());
    const stop = $session.listen(() => {});
    await requireSignedIn();
    await new Promise((r) => setTimeout(r, 20)); // time for a second question to arrive
    stop();
    expect(api.calls(getSession)).toHaveLength(1);
  });

  test("sends a signed-in visitor of the sign-in page on to its next page", async () => {
    const visits = fakeNavigation("/gateway?next=%2Fs%2Fsecurity");
    api.on(getSession, session());
    await leaveIfSignedIn();
    expect(visits).toEqual(["replace /s/security"]);
  });

  test("never follows a next address on another site", async () => {
    const visits = fakeNavigation("/gateway?next=%2F%2Fevil.example%2F");
    api.on(getSession, session());
    await leaveIfSignedIn();
    expect(visits).toEqual(["replace /user/welcome"]);
  });

  test("signs out and opens the sign-in page, even when the server cannot be reached", async () => {
    const visits = fakeNavigation("/s/settings");
    api.on(logout, () => Promise.reject(new TypeError("fetch failed")));
    await signOut();
    expect(api.calls(logout)).toHaveLength(1);
    expect($session.get()).toEqual({ status: "anonymous" });
    expect(visits).toEqual(["/gateway"]);
  });
});
