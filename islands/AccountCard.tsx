import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import {
  ALREADY_REGISTERED_TEXT,
  ALREADY_REGISTERED_TITLE,
  REGISTRATION_SENT_TEXT,
  REGISTRATION_SENT_TITLE,
} from "../src/domain/auth.ts";
import { publicRecordLinks, type RecordKind } from "../src/domain/publicRecord.ts";
import { loadConfig } from "../src/stores/config.ts";
import { loadSession } from "../src/stores/session.ts";
import { fieldError, generalErrors } from "../src/stores/http.ts";
import { $register, register, clearRegisterErrors, showMode } from "../src/stores/register.ts";
import { SignInCard } from "./SignInCard.tsx";
import { Field, FormErrors } from "./ui/Field.tsx";
import { Form, SubmitButton } from "./ui/Form.tsx";

/**
 * The register / sign-in card of the public order and quote pages. A visitor who is
 * already signed in is sent to the signed-in detail page instead.
 */
export default function AccountCard({ kind }: { kind?: RecordKind }) {
  const s = useStore($register);
  const email = useRef<HTMLInputElement>(null);
  const title =
    kind === "order" ? "Submit Payment" : kind === "quote" ? "Place your Order" : "Create your account";
  const [links] = useState(() =>
    kind && typeof location !== "undefined" ? publicRecordLinks(kind, location.pathname) : null,
  );
  const referrer = links?.referrer ?? "";
  useEffect(() => {
    void loadConfig();
    if (new URLSearchParams(location.search).get("ref") === "login") showMode("signin");
    void loadSession().then((state) => {
      if (state.status === "signedIn" && links) location.assign(links.signedInPath);
    });
  }, [links]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input = email.current;
    if (!s.busy && input) void register(referrer, input.value, input.checkValidity());
  };
  if (s.mode === "signin")
    return (
      <article>
        <SignInCard onRegister={() => showMode("register")} />
      </article>
    );
  if (s.mode === "sent") {
    return (
      <article aria-live="polite">
        <h2>{REGISTRATION_SENT_TITLE}</h2>
        <p>{REGISTRATION_SENT_TEXT}</p>
      </article>
    );
  }
  if (s.mode === "already") {
    return (
      <article aria-live="polite">
        <h2>{ALREADY_REGISTERED_TITLE}</h2>
        <p>{ALREADY_REGISTERED_TEXT}</p>
        <SignInCard title="Account Login" />
      </article>
    );
  }
  // The email input is uncontrolled: what a visitor types before the island hydrates is kept.
  return (
    <article>
      <Form onSubmit={submit} aria-label={title}>
        <h2>{title}</h2>
        <Field
          label="Email"
          type="email"
          name="emailAddress"
          autoComplete="email"
          inputRef={email}
          onChange={clearRegisterErrors}
          error={fieldError(s.errors, "emailAddress")}
        />
        <SubmitButton busy={s.busy} busyLabel="Requesting Account...">
          Register
        </SubmitButton>
        <FormErrors messages={generalErrors(s.errors, ["emailAddress"])} />
      </Form>
      <p>
        <a href="?ref=login" onClick={(e) => (e.preventDefault(), showMode("signin"))}>
          Already have an account? Sign in.
        </a>
      </p>
      <p className="muted">
        Register now to see this record's full details, track shipments and pay online, and to find all your
        quotes and orders in one place later.
      </p>
    </article>
  );
}
