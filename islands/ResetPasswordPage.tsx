import { useStore } from "@nanostores/react";
import { useEffect, type FormEvent } from "react";
import { fieldError, generalErrors } from "../src/api/errors.ts";
import { PATHS } from "../src/domain/paths.ts";
import { $reset, $resetForm, checkResetLink, saveNewPassword } from "../src/stores/passwordReset.ts";
import { BusyButton } from "./ui/BusyButton.tsx";
import { FormErrors, NewPasswordField } from "./ui/Field.tsx";
import { Form } from "./ui/Form.tsx";
import { LinkProblem } from "./ui/LinkProblem.tsx";

const TITLE = "Choose a new password";

/** /gateway/reset-password?token=: choose a new password from the emailed link. */
export default function ResetPasswordPage() {
  const state = useStore($reset);
  const form = useStore($resetForm);
  useEffect(() => void checkResetLink(), []);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void saveNewPassword(String(new FormData(e.currentTarget).get("password") ?? ""));
  };
  switch (state.step) {
    case "checking":
      return (
        <article className="card-narrow">
          <h1>{TITLE}</h1>
          <p aria-busy="true">Checking your link...</p>
        </article>
      );
    case "broken":
      return (
        <article className="card-narrow">
          <h1>{TITLE}</h1>
          <LinkProblem errors={state.errors} requestHref={PATHS.resetRequest} />
        </article>
      );
    case "signedIn":
      return (
        <article className="card-narrow" aria-live="polite">
          <h1>Password changed</h1>
          <p aria-busy="true">Opening your account...</p>
        </article>
      );
    case "signInAgain":
      return <SignInAgain />;
    case "form":
      return (
        <article className="card-narrow">
          <Form onSubmit={submit} aria-label={TITLE}>
            <h1>{TITLE}</h1>
            <NewPasswordField label="New password" error={fieldError(form.errors, "password")} autoFocus />
            <BusyButton busy={form.busy} busyLabel="Saving...">
              Save password
            </BusyButton>
            <FormErrors messages={generalErrors(form.errors, ["password"])} />
          </Form>
        </article>
      );
  }
}

/** With one-time codes on, the emailed link alone never signs in: the code is still owed. */
function SignInAgain() {
  return (
    <article className="card-narrow" aria-live="polite">
      <h1>Password changed</h1>
      <p>
        Your new password is saved. Your account asks for a one-time passcode, so sign in again with your new
        password and a code from your authenticator app.
      </p>
      <p className="muted">Every browser was signed out, and no browser skips the code any more.</p>
      <a href={PATHS.gateway} role="button">
        Sign in
      </a>
    </article>
  );
}
