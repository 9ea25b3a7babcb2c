import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { emailField, idField, nameField, passwordField, referrerField, tokenField } from "./fields.ts";

/** Registration from a public order or quote card. */
export const signUp = endpoint({
  method: "post",
  path: "/user/new/sign-up",
  host: "account",
  body: "form",
  request: z.object({ emailAddress: emailField, referrer: referrerField }),
  response: z.object({
    userExists: z.union([z.literal(0), z.literal(1)]),
    samlConfigName: z.optional(z.string()),
  }),
  summary: "Registers an address (mails a validation link) or says it already has an account.",
});

export const checkValidationToken = endpoint({
  method: "get",
  path: "/user/validate/check",
  host: "account",
  body: "query",
  request: z.object({ token: tokenField }),
  response: z.object({ email: z.string() }),
  summary: "The address a registration link validates, when the link is still usable.",
});

export const validateAccount = endpoint({
  method: "post",
  path: "/user/validate",
  host: "account",
  body: "form",
  request: z.object({
    token: tokenField,
    firstName: nameField("first name"),
    lastName: nameField("last name"),
    password: passwordField,
  }),
  response: z.object({}),
  summary: "Creates the validated account and signs it in.",
});

export const AccountMessageSchema = z.object({
  id: z.number(),
  title: z.string(),
  body: z.string(),
  timeCreated: z.number(),
  timeViewed: z.null(),
});
export type AccountMessage = z.infer<typeof AccountMessageSchema>;

export const listMessages = endpoint({
  method: "get",
  path: "/api/v1/account-messages",
  host: "api",
  body: "none",
  request: undefined,
  response: z.array(AccountMessageSchema),
  summary: "Unread account messages of the active subscription, newest first.",
});

export const dismissMessage = endpoint({
  method: "post",
  path: "/api/v1/account-messages/dismiss-message",
  host: "api",
  body: "json",
  request: z.strictObject({ messageId: idField }),
  response: z.object({ id: z.number() }),
  summary: "Marks a message as read by this person.",
});

const MfaStatus = z.object({ enabled: z.boolean(), rememberedDevices: z.number() });
export type MfaStatus = z.infer<typeof MfaStatus>;

export const getMfa = endpoint({
  method: "get",
  path: "/api/v1/account/mfa",
  host: "api",
  body: "none",
  request: undefined,
  response: MfaStatus,
  summary: "Whether the one-time passcode is on, and how many browsers are remembered.",
});

export const startMfaSetup = endpoint({
  method: "post",
  path: "/api/v1/account/mfa/setup",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ secret: z.string(), otpauthUri: z.string(), qrSvg: z.string() }),
  summary: "A new secret and QR code; nothing changes until a first code confirms it.",
});

export const enableMfa = endpoint({
  method: "post",
  path: "/api/v1/account/mfa/enable",
  host: "api",
  body: "json",
  request: z.strictObject({ code: z.string().check(z.trim()) }),
  response: z.object({ enabled: z.literal(true) }),
  summary: "Turns the one-time passcode on, confirmed by a first code.",
});

export const disableMfa = endpoint({
  method: "post",
  path: "/api/v1/account/mfa/disable",
  host: "api",
  body: "json",
  request: z.strictObject({ password: z.string() }),
  response: z.object({ enabled: z.literal(false) }),
  summary: "Turns the one-time passcode off, confirmed by the password.",
});

export const forgetRememberedDevices = endpoint({
  method: "delete",
  path: "/api/v1/account/mfa/remembered-devices",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ rememberedDevices: z.literal(0) }),
  summary: "Revokes every remembered browser.",
});

export const SessionRowSchema = z.object({
  browser: z.string(),
  createdAt: z.number(),
  lastSeenAt: z.number(),
  current: z.boolean(),
});
export type SessionRow = z.infer<typeof SessionRowSchema>;

export const listSessions = endpoint({
  method: "get",
  path: "/api/v1/account/sessions",
  host: "api",
  body: "none",
  request: undefined,
  response: z.array(SessionRowSchema),
  summary: "The person's signed-in browsers, newest first.",
});

export const endOtherSessions = endpoint({
  method: "delete",
  path: "/api/v1/account/sessions/others",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ ended: z.number() }),
  summary: "Signs out every browser but this one.",
});
