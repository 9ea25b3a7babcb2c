import type { FormHTMLAttributes, ReactNode } from "react";
import { useHydrated } from "./useHydrated.ts";

/** What a submit button reads until its island's script has run. */
export const LOADING_LABEL = "Loading...";

/**
 * An island's form. The island sends it with fetch; the server-rendered HTML shows it before
 * the script runs (seconds on a slow link). A plain HTML submission in that gap must not
 * put the fields in the address bar, so the form is a POST (fields in the body, answered by
 * the page's own URL) and its submit button stays disabled until hydration (see
 * SubmitButton), which also stops Enter: a form whose default button is disabled is not
 * submitted implicitly, however many fields it has.
 */
export function Form(props: Omit<FormHTMLAttributes<HTMLFormElement>, "method">) {
  return <form method="post" noValidate {...props} />;
}

/**
 * The form's submit button: disabled and reading "Loading..." until the island hydrates
 * (the inputs stay typeable; what is typed is kept), then its label, or the busy label
 * while a request is out.
 */
export function SubmitButton({
  busy,
  busyLabel,
  children,
}: {
  busy: boolean;
  busyLabel: string;
  children: ReactNode;
}) {
  const ready = useHydrated();
  const waiting = busy || !ready;
  return (
    <button type="submit" aria-busy={waiting} disabled={waiting}>
      {!ready ? LOADING_LABEL : busy ? busyLabel : children}
    </button>
  );
}
