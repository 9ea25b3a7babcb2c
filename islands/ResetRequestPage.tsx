import { useState, type FormEvent } from "react";
import { RequestFailure, fieldError, generalErrors, send, type FieldError } from "../src/stores/http.ts";
import { Field, FormErrors } from "./ui/Field.tsx";
import { Form, SubmitButton } from "./ui/Form.tsx";

/** /gateway/request-password-reset: asks for the address and confirms a link was sent. */
export default function ResetRequestPage() {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [sent, setSent] = useState<string | null>(null);
  // The input is uncontrolled: what a visitor types before the island hydrates is kept, and read here.
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const emailAddress = String(new FormData(e.currentTarget).get("emailAddress") ?? "");
    setBusy(true);
    setErrors([]);
    try {
      const data = await send<{ message: string }>("account", "/gateway/request-password-reset", {
        form: { emailAddress },
      });
      setSent(data.message);
    } catch (err) {
      setErrors(err instanceof RequestFailure ? err.errors : [{ field: null, message: String(err) }]);
    } finally {
      setBusy(false);
    }
  };
  if (sent)
    return (
      <article aria-live="polite">
        <h2>Check your email</h2>
        <p>{sent}</p>
      </article>
    );
  return (
    <article className="card-narrow">
      <Form onSubmit={submit} aria-label="Reset your password">
        <h2>Reset your password</h2>
        <Field
          label="Email"
          type="email"
          name="emailAddress"
          autoComplete="email"
          error={fieldError(errors, "emailAddress")}
          autoFocus
        />
        <SubmitButton busy={busy} busyLabel="Sending...">
          Send reset link
        </SubmitButton>
        <FormErrors messages={generalErrors(errors, ["emailAddress"])} />
      </Form>
    </article>
  );
}
