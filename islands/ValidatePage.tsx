import { useStore } from "@nanostores/react";
import { useEffect, type FormEvent } from "react";
import { fieldError, generalErrors } from "../src/api/errors.ts";
import { PATHS } from "../src/domain/paths.ts";
import {
  $validation,
  $validationForm,
  checkValidationLink,
  createAccount,
} from "../src/stores/validation.ts";
import { BusyButton } from "./ui/BusyButton.tsx";
import { Field, FormErrors, NewPasswordField } from "./ui/Field.tsx";
import { Form } from "./ui/Form.tsx";
import { LinkProblem } from "./ui/LinkProblem.tsx";

const TITLE = "Validate your account";
const FIELDS = ["firstName", "lastName", "password"];

/** /user/validate?token=: the registration link; name and password, then signed in. */
export default function ValidatePage() {
  const state = useStore($validation);
  const form = useStore($validationForm);
  useEffect(() => void checkValidationLink(), []);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (name: string) => String(f.get(name) ?? "");
    void createAccount({
      firstName: text("firstName"),
      lastName: text("lastName"),
      password: text("password"),
    });
  };
  if (state.step !== "form")
    return (
      <article className="card-narrow">
        <h1>{TITLE}</h1>
        {state.step === "broken" ? (
          <LinkProblem errors={state.errors} requestHref={PATHS.register} />
        ) : (
          <p aria-busy="true">Checking your link...</p>
        )}
      </article>
    );
  return (
    <article className="card-narrow">
      <Form onSubmit={submit} aria-label={TITLE}>
        <h1>{TITLE}</h1>
        <p className="muted">{state.email}</p>
        <Field
          label="First name"
          name="firstName"
          autoComplete="given-name"
          error={fieldError(form.errors, "firstName")}
          autoFocus
        />
        <Field
          label="Last name"
          name="lastName"
          autoComplete="family-name"
          error={fieldError(form.errors, "lastName")}
        />
        <NewPasswordField label="Password" error={fieldError(form.errors, "password")} />
        <BusyButton busy={form.busy} busyLabel="Saving...">
          Create account
        </BusyButton>
        <FormErrors messages={generalErrors(form.errors, FIELDS)} />
      </Form>
    </article>
  );
}
