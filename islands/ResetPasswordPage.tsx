import { useStore } from "@nanostores/react";
import { useEffect, useState, type FormEvent } from "react";
import { fieldError, generalErrors } from "../src/stores/http.ts";
import { $reset, checkResetLink, saveNewPassword } from "../src/stores/passwordReset.ts";
import { Field, FormErrors } from "./ui/Field.tsx";

const TITLE = "Choose a new password";

/** /gateway/reset-password?token=: choose a new password from the emailed link. */
export default function ResetPasswordPage() {
  const state = useStore($reset);
  const [password, setPassword] = useState("");
  const [token] = useState(() =>
    typeof location === "undefined" ? "" : (new URLSearchParams(location.search).get("token") ?? ""),
  );
  useEffect(() => void checkResetLink(token), [token]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saveNewPassword(token, password);
  };
  switch (state.step) {
    case "checking":
    case "broken":
      return (
        <article className="card-narrow">
          <h2>{TITLE}</h2>
          {state.step === "broken" ? (
            <FormErrors messages={state.errors.map((e) => e.message)} />
          ) : (
            <p aria-busy="true">Checking your link...</p>
          )}
        </article>
      );
    case "signedIn":
      return (
        <article className="card-narrow" aria-live="polite">
          <h2>Password changed</h2>
          <p aria-busy="true">Opening your account...</p>
        </article>
      );
    case "signInAgain":
      return <SignInAgain />;
    case "form":
      return (
        <article className="card-narrow">
          <form onSubmit={submit} noValidate aria-label={TITLE}>
            <h2>{TITLE}</h2>
            <Field
              label="New password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={fieldError(state.errors, "password")}
              hint="At least 10 characters."
              autoFocus
            />
            <button type="submit" aria-busy={state.busy} disabled={state.busy}>
              {state.busy ? "Saving..." : "Save password"}
            </button>
            <FormErrors messages={generalErrors(state.errors, ["password"])} />
          </form>
        </article>
      );
  }
}

/** With one-time codes on, the emailed link alone never signs in: the code is still owed. */
function SignInAgain() {
  return (
    <article className="card-narrow" aria-live="polite">
      <h2>Password changed</h2>
      <p>
        Your new password is saved. Your account asks for a one-time passcode, so sign in again with your new
        password and a code from your authenticator app.
      </p>
      <p className="muted">Every browser was signed out, and no browser skips the code any more.</p>
      <a href="/gateway" role="button">
        Sign in
      </a>
    </article>
  );
}
