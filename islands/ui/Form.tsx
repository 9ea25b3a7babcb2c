import type { FormHTMLAttributes } from "react";

/**
 * An island's form. The island sends it with fetch; the server-rendered HTML shows it before
 * the script runs (seconds on a slow link). A plain HTML submission in that gap must not
 * put the fields in the address bar, so the form is a POST (fields in the body, answered by
 * the page's own URL) and its submit button is a BusyButton, disabled until hydration.
 */
export function Form(props: Omit<FormHTMLAttributes<HTMLFormElement>, "method">) {
  return <form method="post" noValidate {...props} />;
}
