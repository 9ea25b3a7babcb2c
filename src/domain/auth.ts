/** Messages of the sign-in and registration flows, spelled as the spec spells them. */
export const INVALID_EMAIL = "Invalid email address.";
export const REGISTRATION_SENT_TITLE = "Registration Email Sent";
export const REGISTRATION_SENT_TEXT =
  "An account registration request has been sent to your email. Check the link in the message to validate your account.";
export const ALREADY_REGISTERED_TITLE = "Good News! You are Already Registered.";
export const ALREADY_REGISTERED_TEXT = "Enter your password and click login to access your account.";
export const OTP_HINT = "Enter your one-time passcode from your authenticator app.";
export const REMEMBER_DEVICE_LABEL = "Remember this device for 30 days";
export const REMEMBER_DEVICE_DAYS = 30;

// Our own messages where the spec names none.
export const WRONG_CREDENTIALS = "Incorrect email or password.";
export const WRONG_OTP = "That one-time passcode is not valid. Try the current code from your app.";
export const CHALLENGE_EXPIRED = "Your sign-in took too long. Start again with your email.";
export const PASSWORD_RULE = "Password must be between 10 and 200 characters.";
export const LINK_INVALID = "This link is invalid or has expired. Request a new one.";

// No display names, groups, comments, lists or quoting: a mailer reads `x,ada@example.com`,
// `a<ada@example.com>` or `ada@example.com(c)` as ada@example.com, so each such spelling
// would reach one inbox past every limit keyed on the text (the attack review of 2026-11-29).
const EMAIL = /^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\]+\.[^\s@<>()[\],;:"\\]+$/;

/** A plausible email address, one mailbox spelt plainly (the browser's own check runs first). */
export function isEmail(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}

/** Passwords are 10 to 200 characters. */
export function passwordError(password: string): string | null {
  return password.length < 10 || password.length > 200 ? PASSWORD_RULE : null;
}

/** Why a federated sign-in was refused; the account service sends the code to /gateway. */
export const SAML_REFUSALS = {
  unverified: "Your identity provider's response could not be verified, so you were not signed in.",
  expired: "That sign-in response has expired or was already used. Please sign in again.",
  unknown: "Federated sign-in is not set up for this organization.",
  "no-email": "Your identity provider did not send an email address, so you could not be signed in.",
  elsewhere: "This sign-in was not started in this browser, so it was not completed. Please sign in again.",
} as const;
export type SamlRefusal = keyof typeof SAML_REFUSALS;

/** The message for a refusal code from the address bar; anything else shows nothing. */
export function samlRefusalMessage(code: string | null): string | null {
  return code && Object.hasOwn(SAML_REFUSALS, code) ? SAML_REFUSALS[code as SamlRefusal] : null;
}

/** A same-site path to continue to after sign-in; anything else (other hosts) falls back. */
export function safeNextPath(next: string | null | undefined, fallback = "/user/welcome"): string {
  if (!next?.startsWith("/") || next.startsWith("//") || next.includes("\\")) return fallback;
  return [...next].some((ch) => ch.charCodeAt(0) < 0x20) ? fallback : next;
}
