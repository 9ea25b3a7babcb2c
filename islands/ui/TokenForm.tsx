import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { RequestFailure, send, type FieldError } from "../../src/stores/http.ts";
import { FormErrors } from "./Field.tsx";
import { Form, SubmitButton } from "./Form.tsx";

interface Props {
  title: string;
  /** GET endpoint that says whether the emailed token is still good. */
  checkPath: string;
  /** POST endpoint taking the token and the form's fields. */
  submitPath: string;
  submitLabel: string;
  fields: Record<string, string>;
  children: (errors: FieldError[], tokenInfo: Record<string, string>) => ReactNode;
  fieldNames: string[];
}

/** Forms reached from an emailed link: check the token, then post it with the fields and go on. */
export function TokenForm({
  title,
  checkPath,
  submitPath,
  submitLabel,
  fields,
  children,
  fieldNames,
}: Props) {
  const [token] = useState(() =>
    typeof location === "undefined" ? "" : (new URLSearchParams(location.search).get("token") ?? ""),
  );
  const [info, setInfo] = useState<Record<string, string> | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    send<Record<string, string>>("account", `${checkPath}?token=${encodeURIComponent(token)}`, {
      method: "get",
    })
      .then((d) => setInfo(d ?? {}))
      .catch((e) =>
        setErrors(e instanceof RequestFailure ? e.errors : [{ field: null, message: String(e) }]),
      );
  }, [checkPath, token]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors([]);
    try {
      await send("account", submitPath, { form: { token, ...fields } });
      location.assign("/user/welcome");
    } catch (err) {
      setErrors(err instanceof RequestFailure ? err.errors : [{ field: null, message: String(err) }]);
      setBusy(false);
    }
  };
  if (!info) {
    const broken = errors.map((e) => e.message);
    return (
      <article className="card-narrow">
        <h2>{title}</h2>
        {broken.length ? <FormErrors messages={broken} /> : <p aria-busy="true">Checking your link...</p>}
      </article>
    );
  }
  return (
    <article className="card-narrow">
      <Form onSubmit={submit} aria-label={title}>
        <h2>{title}</h2>
        {children(errors, info)}
        <SubmitButton busy={busy} busyLabel="Saving...">
          {submitLabel}
        </SubmitButton>
        <FormErrors
          messages={errors
            .filter((e) => e.field === null || !fieldNames.includes(e.field))
            .map((e) => e.message)}
        />
      </Form>
    </article>
  );
}
