import { useState, type FormEvent } from "react";
import { RequestFailure, fieldError, generalErrors, send, type FieldError } from "../src/stores/http.ts";
import { Field, FormErrors } from "./ui/Field.tsx";

/** /gateway/request-password-reset: asks for the address and confirms a link was sent. */
export default function ResetRequestPage() {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [sent, setSent] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors([]);
    try {
      const data = await send<{ message: string }>("account", "/gateway/request-password-reset", {
        form: { emailAddress: email },
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
      <form onSubmit={submit} noValidate aria-label="Reset your password">
        <h2>Reset your password</h2>
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldError(errors, "emailAddress")}
          autoFocus
        />
        <button type="submit" aria-busy={busy} disabled={busy}>
          {busy ? "Sending..." : "Send reset link"}
        </button>
        <FormErrors messages={generalErrors(errors, ["emailAddress"])} />
      </form>
    </article>
  );
}
