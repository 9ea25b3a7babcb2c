import { cleanStores } from "nanostores";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { signUp } from "../../src/api/accounts.ts";
import { checkEmail } from "../../src/api/gateway.ts";
import { getSession } from "../../src/api/session.ts";
import { INVALID_EMAIL } from "../../src/domain/auth.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { $register, openRegisterCard, register, showMode } from "../../src/stores/register.ts";
import { $session } from "../../src/stores/session.ts";
import { $signIn, resetSignIn } from "../../src/stores/signIn.ts";
import { fakeApi, fakeNavigation } from "./fakeApi.ts";
import { NOT_SIGNED_IN, session } from "./sessions.ts";

const ORDER_PAGE = "/p/order/ORD-5003-abc_DEF";

let api: ReturnType<typeof fakeApi>;

beforeEach(() => {
  api = fakeApi();
  $register.set({ mode: "register", referrer: "", busy: false, errors: [] });
  cleanStores($session); // unmounted: the next use asks the server again
  $session.set({ status: "loading" });
  resetSignIn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("register card on a public order page", () => {
  test("mails a new address with the order as referrer and says the mail is sent", async () => {
    fakeNavigation(ORDER_PAGE);
    api.on(getSession, NOT_SIGNED_IN);
    api.on(signUp, { userExists: 0 });
    await openRegisterCard("order");
    await register(" fresh.person@example.com ", true);
    expect(api.calls(signUp)).toEqual([
      {
        method: "POST",
        url: "https://account.test/user/new/sign-up",
        as: "form",
        fields: { emailAddress: "fresh.person@example.com", referrer: "ord-5003" },
      },
    ]);
    expect($register.get()).toMatchObject({ mode: "sent", busy: false, errors: [] });
  });

  test("leaves a signed-in visitor on the page: the page script sends members on, not the card", async () => {
    const visits = fakeNavigation(ORDER_PAGE);
    api.on(getSession, session());
    await openRegisterCard("order");
    expect(visits).toEqual([]);
    expect(api.sent).toEqual([]);
  });

  test("opens on its sign-in face with ref=login, and leaves an anonymous visitor on the page", async () => {
    const visits = fakeNavigation(`${ORDER_PAGE}?ref=login`);
    api.on(getSession, NOT_SIGNED_IN);
    await openRegisterCard("order");
    expect($register.get().mode).toBe("signin");
    expect(visits).toEqual([]);
  });

  test("refuses an address the browser calls invalid without asking the server", async () => {
    fakeNavigation(ORDER_PAGE);
    await register("not-an-email", false);
    expect(api.sent).toEqual([]);
    expect($register.get().errors).toEqual([{ field: "emailAddress", message: INVALID_EMAIL }]);
  });
});

describe("register card for a registered address", () => {
  beforeEach(() => void fakeNavigation("/user/register"));

  test("shows 'already registered' with the sign-in card at its password step", async () => {
    api.on(signUp, { userExists: 1 });
    api.on(checkEmail, { samlConfigName: null, mfaRequired: true });
    await register("billing@example.com", true);
    expect(api.calls(signUp)[0]?.fields).toEqual({ emailAddress: "billing@example.com", referrer: "" });
    expect($register.get()).toMatchObject({ mode: "already", busy: false });
    expect($signIn.get()).toMatchObject({ step: 1, email: "billing@example.com", mfaRequired: true });
  });

  test("sends a federated address to its identity provider", async () => {
    const visits = fakeNavigation("/user/register");
    api.on(signUp, { userExists: 1, samlConfigName: "acme" });
    await register("ada@acme.example", true);
    expect(visits).toEqual(["https://account.test/auth/saml/login/acme?next=%2Fuser%2Fregister"]);
    expect(api.calls(checkEmail)).toEqual([]);
  });

  test("shows the server's message beside the email field and is ready again", async () => {
    api.on(signUp, { status: 400, errors: [{ field: "emailAddress", message: INVALID_EMAIL }] });
    await register("a@b.c", true);
    expect($register.get()).toMatchObject({
      mode: "register",
      busy: false,
      errors: [{ field: "emailAddress", message: INVALID_EMAIL }],
    });
  });

  test("starts the sign-in card over when switched to its sign-in face", () => {
    resetSignIn({ email: "old@example.com", mfaRequired: false });
    $register.setKey("errors", [{ field: "emailAddress", message: INVALID_EMAIL }]);
    showMode("signin");
    expect($register.get()).toMatchObject({ mode: "signin", errors: [] });
    expect($signIn.get()).toMatchObject({ step: 0, email: "" });
  });
});
