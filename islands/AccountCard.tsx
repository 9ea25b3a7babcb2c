import { useStore } from "@nanostores/react";
import { useEffect, useRef, type FormEvent } from "react";
import { fieldError, generalErrors } from "../src/api/errors.ts";
import {
  ALREADY_REGISTERED_TEXT,
  ALREADY_REGISTERED_TITLE,
  REGISTRATION_SENT_TEXT,
  REGISTRATION_SENT_TITLE,
} from "../src/domain/auth.ts";
import type { RecordKind } from "../src/domain/publicRecord.ts";
import {
  $register,
  clearRegisterErrors,
  openRegisterCard,
  register,
  showMode,
} from "../src/stores/register.ts";
import { SignInCard } from "./SignInCard.tsx";
import { BusyButton } from "./ui/BusyButton.tsx";
import { Field, FormErrors } from "./ui/Field.tsx";
import { Form } from "./ui/Form.tsx";

const TITLES: Record<RecordKind | "none", string> = {
  order: "Submit Payment",
  quote: "Place your Order",
  none: "Create your account",
};

/**
 * The register / sign-in card of the public order and quote pages, and the whole of
 * /user/register (no kind: the card is the page, so its headings are h1).
 */
export default function AccountCard({ kind }: { kind?: RecordKind }) {
  const s = useStore($register);
  const email = useRef<HTMLInputElement>(null);
  const title = TITLES[kind ?? "none"];
  // On a record page the card's title is the page's (src/components/RecordAccountCard.astro);
  // on /user/register the card is the page, so its headings are h1.
  const Heading = kind ? "h3" : "h1";
  const Wrapper = kind ? "div" : "article";
  useEffect(() => openRegisterCard(kind), [kind]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input = email.current;
    if (input) void register(input.value, input.checkValidity());
  };
  if (s.mode === "signin")
    return (
      <Wrapper>
        <SignInCard Heading={Heading} onRegister={() => showMode("register")} />
      </Wrapper>
    );
  if (s.mode === "sent") {
    return (
      <Wrapper aria-live="polite">
        <Heading>{REGISTRATION_SENT_TITLE}</Heading>
        <p>{REGISTRATION_SENT_TEXT}</p>
      </Wrapper>
    );
  }
  if (s.mode === "already") {
    return (
      <Wrapper aria-live="polite">
        <Heading>{ALREADY_REGISTERED_TITLE}</Heading>
        <p>{ALREADY_REGISTERED_TEXT}</p>
        <SignInCard title="Account Login" />
      </Wrapper>
    );
  }
  // The email input is uncontrolled: what a visitor types before the island hydrates is kept.
  return (
    <Wrapper>
      <Form onSubmit={submit} aria-label={title}>
        {!kind && <Heading>{title}</Heading>}
        <Field
          label="Email"
          type="email"
          name="emailAddress"
          autoComplete="email"
          inputRef={email}
          onChange={clearRegisterErrors}
          error={fieldError(s.errors, "emailAddress")}
        />
        <BusyButton busy={s.busy} busyLabel="Requesting Account..." early>
          Register
        </BusyButton>
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
    </Wrapper>
  );
}
