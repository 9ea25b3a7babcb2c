import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { emailField, orDefault, passwordField, tokenField } from "./fields.ts";

const Empty = z.object({});
const password = z.string({ error: "Enter your password." }).check(z.minLength(1, "Enter your password."));

/** Sign-in step 0: a federated address goes to its identity provider; else is a code owed? */
export const checkEmail = endpoint({
  method: "post",
  path: "/gateway/check-email",
  host: "account",
  body: "form",
  request: z.object({ emailAddress: emailField }),
  response: z.object({ samlConfigName: z.nullable(z.string()), mfaRequired: z.boolean() }),
  summary: "Sign-in step 0: the email address.",
});

export const submitPassword = endpoint({
  method: "post",
  path: "/gateway/submit",
  host: "account",
  body: "form",
  request: z.object({ emailAddress: emailField, password }),
  response: z.object({ mfaRequired: z.boolean() }),
  summary: "Sign-in step 1: the password; signs in unless a one-time code is owed.",
});

export const verifyOtp = endpoint({
  method: "post",
  path: "/gateway/verify-otp",
  host: "account",
  body: "form",
  request: z.object({
    otp: orDefault(z.string().check(z.trim()), ""),
    remember: orDefault(z.enum(["1", "0"]), "0"),
  }),
  response: Empty,
  summary: "Sign-in step 2: the one-time passcode, optionally remembering the browser for 30 days.",
});

export const logout = endpoint({
  method: "post",
  path: "/gateway/logout",
  host: "account",
  body: "form",
  request: undefined,
  response: Empty,
  summary: "Signs out.",
});

export const requestPasswordReset = endpoint({
  method: "post",
  path: "/gateway/request-password-reset",
  host: "account",
  body: "form",
  request: z.object({ emailAddress: emailField }),
  response: z.object({ message: z.string() }),
  summary: "Mails a one-hour, single-use reset link when the address has an account.",
});

export const checkResetToken = endpoint({
  method: "get",
  path: "/gateway/reset-password/check",
  host: "account",
  body: "query",
  request: z.object({ token: tokenField }),
  response: Empty,
  summary: "Whether a reset link is still usable (to show the right form).",
});

export const resetPassword = endpoint({
  method: "post",
  path: "/gateway/reset-password",
  host: "account",
  body: "form",
  request: z.object({ token: tokenField, password: passwordField }),
  response: z.object({ signedIn: z.boolean(), mfaRequired: z.boolean() }),
  summary: "Sets a new password from an emailed link; signs in only a person without a one-time passcode.",
});
