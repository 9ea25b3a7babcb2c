import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { checkEmail, submitPassword as passwordCall, verifyOtp } from "../../src/api/gateway.ts";
import { INVALID_EMAIL, WRONG_CREDENTIALS } from "../../src/domain/auth.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import {
  $signIn,
  changeEmail,
  resetSignIn,
  submitEmail,
  submitOtp,
  submitPassword,
} from "../../src/stores/signIn.ts";
import { fakeApi, fakeNavigation, later } from "./fakeApi.ts";

let api: ReturnType<typeof fakeApi>;
let visits: string[];

beforeEach(() => {
  api = fakeApi();
  visits = fakeNavigation("/gateway?next=%2Fs%2Fsettings");
  resetSignIn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("sign-in card, email step", () => {
  test("sends the trimmed address to the account host as a form and moves to the password step", async () => {
    api.on(checkEmail, { samlConfigName: null, mfaRequired: false });
    await submitEmail("  ada@example.com ");
    expect(api.sent).toEqual([
      {
        method: "POST",
        url: "https://account.test/gateway/check-email",
        as: "form",
        fields: { emailAddress: "ada@example.com" },
      },
    ]);
    expect($signIn.get()).toMatchObject({ step: 1, email: "ada@example.com", busy: false, errors: [] });
  });

  test("says 'Invalid email address.' for an empty address without asking the server", async () => {
    await submitEmail("   ");
    expect(api.sent).toEqual([]);
    expect($signIn.get()).toMatchObject({
      step: 0,
      errors: [{ field: "emailAddress", message: INVALID_EMAIL }],
    });
  });

  test("sends a federated address to its identity provider, to come back to this very page", async () => {
    api.on(checkEmail, { samlConfigName: "acme corp", mfaRequired: false });
    await submitEmail("ada@acme.example");
    expect(visits).toEqual([
      "https://account.test/auth/saml/login/acme%20corp?next=%2Fgateway%3Fnext%3D%252Fs%252Fsettings",
    ]);
    expect($signIn.get().step).toBe(0);
  });

  test("is busy while the check is out and ignores a second press meanwhile", async () => {
    const answer = later<{ samlConfigName: null; mfaRequired: boolean }>();
    api.on(checkEmail, () => answer.promise);
    const first = submitEmail("ada@example.com");
    await vi.waitFor(() => expect(api.sent).toHaveLength(1));
    expect($signIn.get().busy).toBe(true);
    await submitEmail("ada@example.com");
    answer.resolve({ samlConfigName: null, mfaRequired: true });
    await first;
    expect(api.sent).toHaveLength(1);
    expect($signIn.get()).toMatchObject({ busy: false, step: 1, mfaRequired: true });
  });

  test("shows a failed connection's own message and stays on the email step", async () => {
    api.on(checkEmail, () => Promise.reject(new TypeError("fetch failed")));
    await submitEmail("ada@example.com");
    const { errors, busy, step } = $signIn.get();
    expect({ busy, step }).toEqual({ busy: false, step: 0 });
    expect(errors).toEqual([
      {
        field: null,
        message: expect.stringMatching(/network error: POST https:\/\/account\.test\/gateway\/check-email/),
      },
    ]);
  });
});

describe("sign-in card, password and code steps", () => {
  beforeEach(() => resetSignIn({ email: "ada@example.com", mfaRequired: false }));

  test("reloads the page (now signed in) after a password that needs no code", async () => {
    api.on(passwordCall, { mfaRequired: false });
    await submitPassword("demo-password-1");
    expect(api.calls(passwordCall)[0]?.fields).toEqual({
      emailAddress: "ada@example.com",
      password: "demo-password-1",
    });
    expect(visits).toEqual(["reload"]);
  });

  test("moves to the code step when the account asks for a one-time code", async () => {
    api.on(passwordCall, { mfaRequired: true });
    await submitPassword("demo-password-1");
    expect($signIn.get()).toMatchObject({ step: 2, mfaRequired: true });
    expect(visits).toEqual([]);
  });

  test("puts the server's message beside the password field and stays on the step", async () => {
    api.on(passwordCall, { status: 401, errors: [{ field: "password", message: WRONG_CREDENTIALS }] });
    await submitPassword("wrong-password");
    expect($signIn.get()).toMatchObject({
      step: 1,
      busy: false,
      errors: [{ field: "password", message: WRONG_CREDENTIALS }],
    });
    expect(visits).toEqual([]);
  });

  test("goes back to the email step with the address kept, to change it", () => {
    $signIn.setKey("errors", [{ field: "password", message: WRONG_CREDENTIALS }]);
    changeEmail();
    expect($signIn.get()).toMatchObject({ step: 0, email: "ada@example.com", errors: [] });
  });

  test("sends the trimmed code and the remember choice, then reloads", async () => {
    api.on(verifyOtp, {});
    await submitOtp(" 123456 ", true);
    expect(api.calls(verifyOtp)[0]?.fields).toEqual({ otp: "123456", remember: "1" });
    expect(visits).toEqual(["reload"]);
  });
});
