import { useStore } from "@nanostores/react";
import type { FormEvent } from "react";
import { OTP_HINT, REMEMBER_DEVICE_LABEL } from "../src/domain/auth.ts";
import { $config } from "../src/stores/config.ts";
import { fieldError, generalErrors } from "../src/stores/http.ts";
import { $signIn, clearSignInErrors, submitEmail, submitOtp, submitPassword } from "../src/stores/signIn.ts";
import { Field, FormErrors } from "./ui/Field.tsx";
import { Form, SubmitButton } from "./ui/Form.tsx";

const FIELDS = ["emailAddress", "password", "otp"];

/** The three-step 'Account Login' card; Enter submits the current step. */
export function SignInCard({
  onRegister,
  title = "Account Login",
  Heading = "h2",
}: {
  onRegister?: () => void;
  title?: string;
  /** h1 where the card is the page (/gateway), h2 inside a record page. */
  Heading?: "h1" | "h2";
}) {
  const s = useStore($signIn);
  const { accountBase } = useStore($config);
  // Inputs are uncontrolled: what a visitor types before hydration is kept, and read here.
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (s.busy) return;
    const f = new FormData(e.currentTarget);
    const text = (name: string) => String(f.get(name) ?? "");
    if (s.step === 0) void submitEmail(text("emailAddress"));
    else if (s.step === 1) void submitPassword(text("password"));
    else void submitOtp(text("otp"), f.get("remember") === "on");
  };
  const busyLabel = "Authenticating...";
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
          <SubmitButton busy={s.busy} busyLabel={busyLabel}>
            Next
          </SubmitButton>
          <p>
            {onRegister ? (
              <a href="#register" onClick={(e) => (e.preventDefault(), onRegister())}>
                New to the account service? Register.
              </a>
            ) : (
              <a href="/user/register">New to the account service? Register.</a>
            )}
          </p>
        </>
      )}
      {s.step === 1 && (
        <>
          <p className="muted">{s.email}</p>
          <Field
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            autoFocus
            onChange={clearSignInErrors}
            error={fieldError(s.errors, "password")}
          />
          <SubmitButton busy={s.busy} busyLabel={busyLabel}>
            {s.mfaRequired ? "Next" : "Log In"}
          </SubmitButton>
          <p>
            <a href={`${accountBase}/gateway/request-password-reset`} target="_blank" rel="noopener">
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
          <SubmitButton busy={s.busy} busyLabel={busyLabel}>
            Verify
          </SubmitButton>
        </>
      )}
      <FormErrors messages={generalErrors(s.errors, FIELDS)} />
    </Form>
  );
}
