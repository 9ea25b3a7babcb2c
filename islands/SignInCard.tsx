import { useStore } from "@nanostores/react";
import type { FormEvent } from "react";
import { fieldError, generalErrors } from "../src/api/errors.ts";
import { OTP_HINT, REMEMBER_DEVICE_LABEL } from "../src/domain/auth.ts";
import { PATHS } from "../src/domain/paths.ts";
import { $config } from "../src/stores/config.ts";
import {
  $signIn,
  changeEmail,
  clearSignInErrors,
  forgotPassword,
  submitEmail,
  submitOtp,
  submitPassword,
} from "../src/stores/signIn.ts";
import { BusyButton } from "./ui/BusyButton.tsx";
import { Field, FormErrors } from "./ui/Field.tsx";
import { Form } from "./ui/Form.tsx";

const FIELDS = ["emailAddress", "password", "otp"];
const BUSY = "Authenticating...";

/** The three-step 'Account Login' card; Enter submits the current step. */
export function SignInCard({
  onRegister,
  title = "Account Login",
  Heading = "h2",
}: {
  onRegister?: () => void;
  title?: string;
  /** h1 where the card is the page (/gateway, /user/register), h3 inside a record page's card. */
  Heading?: "h1" | "h2" | "h3";
}) {
  const s = useStore($signIn);
  const { accountBase } = useStore($config);
  // Inputs are uncontrolled: what a visitor types before hydration is kept, and read here.
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (name: string) => String(f.get(name) ?? "");
    if (s.step === 0) void submitEmail(text("emailAddress"));
    else if (s.step === 1) void submitPassword(text("password"));
    else void submitOtp(text("otp"), f.get("remember") === "on");
  };
  return (
    <Form onSubmit={submit} aria-label={title}>
      <Heading>{title}</Heading>
      {s.step === 0 && (
        <>
          <Field
            label="Email"
            type="email"
            name="emailAddress"
            autoComplete="username"
            autoFocus
            defaultValue={s.email}
            onChange={clearSignInErrors}
            error={fieldError(s.errors, "emailAddress")}
          />
          <BusyButton busy={s.busy} busyLabel={BUSY} early>
            Next
          </BusyButton>
          <p>
            {onRegister ? (
              <a href="#register" onClick={(e) => (e.preventDefault(), onRegister())}>
                New to the account service? Register.
              </a>
            ) : (
              <a href={PATHS.register}>New to the account service? Register.</a>
            )}
          </p>
        </>
      )}
      {s.step === 1 && (
        <>
          <p className="muted">
            {s.email}{" "}
            <a href={PATHS.gateway} onClick={(e) => (e.preventDefault(), changeEmail())}>
              Use another email address
            </a>
          </p>
          <Field
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            autoFocus
            onChange={clearSignInErrors}
            error={fieldError(s.errors, "password")}
          />
          <BusyButton busy={s.busy} busyLabel={BUSY}>
            {s.mfaRequired ? "Next" : "Log In"}
          </BusyButton>
          <p>
            <a
              href={accountBase + PATHS.resetRequest}
              target="_blank"
              rel="noopener"
              onClick={forgotPassword}
              onAuxClick={forgotPassword}
            >
              Forgot Password
            </a>
          </p>
        </>
      )}
      {s.step === 2 && (
        <>
          <Field
            label="One-time passcode"
            name="otp"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            autoFocus
            hint={OTP_HINT}
            onChange={clearSignInErrors}
            error={fieldError(s.errors, "otp")}
          />
          <label>
            <input type="checkbox" name="remember" />
            {REMEMBER_DEVICE_LABEL}
          </label>
          <BusyButton busy={s.busy} busyLabel={BUSY}>
            Verify
          </BusyButton>
        </>
      )}
      <FormErrors messages={generalErrors(s.errors, FIELDS)} />
    </Form>
  );
}
