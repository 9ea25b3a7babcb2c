import { useStore } from "@nanostores/react";
import { useEffect, useRef, type FormEvent } from "react";
import { fieldError, generalErrors } from "../src/api/errors.ts";
import { takeHandedOverAddress } from "../src/stores/handover.ts";
import { $resetRequest, requestReset } from "../src/stores/passwordReset.ts";
import { BusyButton } from "./ui/BusyButton.tsx";
import { Field, FormErrors } from "./ui/Field.tsx";
import { Form } from "./ui/Form.tsx";

const TITLE = "Reset your password";

/** /gateway/request-password-reset: asks for the address and confirms a link was sent. */
export default function ResetRequestPage() {
  const s = useStore($resetRequest);
  const email = useRef<HTMLInputElement>(null);
  // The address typed on the sign-in card before "Forgot Password", unless one is typed here already.
  useEffect(() => {
    const handed = takeHandedOverAddress();
    if (handed && email.current && !email.current.value) email.current.value = handed;
  }, []);
  // The input is uncontrolled: what a visitor types before the island hydrates is kept, and read here.
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void requestReset(String(new FormData(e.currentTarget).get("emailAddress") ?? ""));
  };
  if (s.sent)
    return (
      <article className="card-narrow" aria-live="polite">
        <h1>Check your email</h1>
        <p>{s.sent}</p>
        <p>
          <a href="/gateway">Back to sign in</a>
        </p>
      </article>
    );
  return (
    <article className="card-narrow">
      <Form onSubmit={submit} aria-label={TITLE}>
        <h1>{TITLE}</h1>
        <Field
          label="Email"
          type="email"
          name="emailAddress"
          autoComplete="email"
          inputRef={email}
          error={fieldError(s.errors, "emailAddress")}
          autoFocus
        />
        <BusyButton busy={s.busy} busyLabel="Sending..." early>
          Send reset link
        </BusyButton>
        <FormErrors messages={generalErrors(s.errors, ["emailAddress"])} />
      </Form>
    </article>
  );
}
