import { useStore } from "@nanostores/react";
import { useEffect, type FormEvent } from "react";
import {
  $visitorLink,
  $visitorLinkForm,
  actOnVisitorLink,
  checkVisitorLink,
  type VisitorLinkAction,
} from "../src/stores/visitorLink.ts";
import { BusyButton } from "./ui/BusyButton.tsx";
import { FormErrors } from "./ui/Field.tsx";
import { Form } from "./ui/Form.tsx";

const TEXT = {
  confirm: {
    title: "Confirm alarm messages",
    ask: "Send an email to {email} whenever an alarm triggers or clears on the report",
    button: "Confirm",
    busy: "Confirming...",
    done: "Subscribed",
  },
  unsubscribe: {
    title: "Unsubscribe",
    ask: "Stop the alarm messages to {email} about the report",
    button: "Unsubscribe",
    busy: "Unsubscribing...",
    done: "Unsubscribed",
  },
} as const;

/** An expired confirm link's way on: the report it belonged to, whose form subscribes again. */
export const SUBSCRIBE_AGAIN = "Open the report to subscribe again";

/** The page of a visitor's emailed confirm or unsubscribe link: what it is for, and one button. */
export default function VisitorLinkPage({ action }: { action: VisitorLinkAction }) {
  const state = useStore($visitorLink);
  const form = useStore($visitorLinkForm);
  const text = TEXT[action];
  useEffect(() => void checkVisitorLink(action), [action]);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void actOnVisitorLink(action);
  };
  if (state.step === "checking")
    return (
      <article className="card-narrow">
        <h1>{text.title}</h1>
        <p aria-busy="true">Checking your link...</p>
      </article>
    );
  if (state.step === "broken")
    return (
      <article className="card-narrow">
        <h1>{text.title}</h1>
        <p role="alert">{state.errors[0]?.message ?? "This link does not work."}</p>
        {state.reportPath && (
          <p>
            <a href={state.reportPath}>{SUBSCRIBE_AGAIN}</a>
          </p>
        )}
      </article>
    );
  if (state.step === "done")
    return (
      <article className="card-narrow" aria-live="polite">
        <h1>{state.already ? "Subscribed already" : text.done}</h1>
        <p role="status">{state.message}</p>
        {state.reportPath && (
          <p>
            <a href={state.reportPath}>Open the report</a>
          </p>
        )}
      </article>
    );
  return (
    <article className="card-narrow">
      <Form onSubmit={submit} aria-label={text.title}>
        <h1>{text.title}</h1>
        <p>
          {text.ask.replace("{email}", state.email)} <strong>{state.reportName}</strong>?
        </p>
        <BusyButton busy={form.busy} busyLabel={text.busy}>
          {text.button}
        </BusyButton>
        <FormErrors messages={form.errors.map((e) => e.message)} />
      </Form>
    </article>
  );
}
