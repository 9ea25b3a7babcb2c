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

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A plausible email address (the browser's own check runs first where there is a form). */
export function isEmail(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}

/** Passwords are 10 to 200 characters. */
export function passwordError(password: string): string | null {
  return password.length < 10 || password.length > 200 ? PASSWORD_RULE : null;
}
