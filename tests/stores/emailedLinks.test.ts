import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { checkValidationToken, validateAccount } from "../../src/api/accounts.ts";
import { checkResetToken, requestPasswordReset, resetPassword } from "../../src/api/gateway.ts";
import { LINK_INVALID, PASSWORD_RULE } from "../../src/domain/auth.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import {
  $reset,
  $resetForm,
  $resetRequest,
  checkResetLink,
  requestReset,
  saveNewPassword,
} from "../../src/stores/passwordReset.ts";
import {
  $validation,
  $validationForm,
  checkValidationLink,
  createAccount,
} from "../../src/stores/validation.ts";
import { fakeApi, fakeNavigation } from "./fakeApi.ts";

const BAD_LINK = { status: 400, errors: [{ field: "token", message: LINK_INVALID }] };
const SENT = "If an account uses that address, a reset link is on its way.";

let api: ReturnType<typeof fakeApi>;
beforeEach(() => {
  api = fakeApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("password reset", () => {
  test("asks for a link and shows the server's 'check your email' message", async () => {
    api.on(requestPasswordReset, { message: SENT });
    await requestReset("viewer@example.com");
    expect(api.calls(requestPasswordReset)[0]?.fields).toEqual({ emailAddress: "viewer@example.com" });
    expect($resetRequest.get()).toMatchObject({ sent: SENT, busy: false });
  });

  test("checks the token of the page's address before showing the form", async () => {
    fakeNavigation("/gateway/reset-password?token=abc%2B1");
    api.on(checkResetToken, {});
    await checkResetLink();
    expect(api.calls(checkResetToken)[0]?.fields).toEqual({ token: "abc+1" });
    expect($reset.get()).toEqual({ step: "form", token: "abc+1" });
  });

  test("says why a used or expired link cannot be used, and shows no form", async () => {
    fakeNavigation("/gateway/reset-password?token=used");
    api.on(checkResetToken, BAD_LINK);
    await checkResetLink();
    expect($reset.get()).toEqual({ step: "broken", errors: BAD_LINK.errors });
  });

  test("saves the new password with the link's token and opens the welcome page when signed in", async () => {
    const visits = fakeNavigation("/gateway/reset-password?token=abc");
    api.on(checkResetToken, {});
    api.on(resetPassword, { signedIn: true, mfaRequired: false });
    await checkResetLink();
    await saveNewPassword("new-password-1");
    expect(api.calls(resetPassword)[0]?.fields).toEqual({ token: "abc", password: "new-password-1" });
    expect(visits).toEqual(["/user/welcome"]);
  });

  test("tells a person with one-time codes to sign in again instead of signing them in", async () => {
    const visits = fakeNavigation("/gateway/reset-password?token=abc");
    api.on(checkResetToken, {});
    api.on(resetPassword, { signedIn: false, mfaRequired: true });
    await checkResetLink();
    await saveNewPassword("new-password-1");
    expect($reset.get()).toEqual({ step: "signInAgain" });
    expect(visits).toEqual([]);
  });

  test("keeps the form with the password rule beside the field for a short password", async () => {
    fakeNavigation("/gateway/reset-password?token=abc");
    api.on(checkResetToken, {});
    api.on(resetPassword, { status: 400, errors: [{ field: "password", message: PASSWORD_RULE }] });
    await checkResetLink();
    await saveNewPassword("short");
    expect($reset.get().step).toBe("form");
    expect($resetForm.get()).toEqual({
      busy: false,
      errors: [{ field: "password", message: PASSWORD_RULE }],
    });
  });
});

describe("registration link", () => {
  test("shows the address the link validates, then creates the account and opens the welcome page", async () => {
    const visits = fakeNavigation("/user/validate?token=t1");
    api.on(checkValidationToken, { email: "fresh@example.com" });
    api.on(validateAccount, {});
    await checkValidationLink();
    expect($validation.get()).toEqual({ step: "form", token: "t1", email: "fresh@example.com" });
    await createAccount({ firstName: "Fresh", lastName: "Person", password: "fresh-password-1" });
    expect(api.calls(validateAccount)[0]?.fields).toEqual({
      token: "t1",
      firstName: "Fresh",
      lastName: "Person",
      password: "fresh-password-1",
    });
    expect(visits).toEqual(["/user/welcome"]);
    expect($validationForm.get().busy).toBe(false);
  });

  test("says why a used link cannot be used", async () => {
    fakeNavigation("/user/validate?token=used");
    api.on(checkValidationToken, BAD_LINK);
    await checkValidationLink();
    expect($validation.get()).toEqual({ step: "broken", errors: BAD_LINK.errors });
  });
});
