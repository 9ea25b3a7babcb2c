import { useEffect, useRef, type FormHTMLAttributes } from "react";

declare global {
  interface Window {
    /** The aria-label of a form whose Enter came before hydration (src/components/EarlySubmit.astro). */
    portalEarlySubmit?: string | null | undefined;
  }
}

/**
 * An island's form. The island sends it with fetch; the server-rendered HTML shows it before
 * the script runs (seconds on a slow link). A plain HTML submission in that gap must not
 * put the fields in the address bar, so the form is a POST (fields in the body, answered by
 * the page's own URL) and its submit button is a BusyButton, disabled until hydration.
 * An Enter pressed in that gap is not lost: the page's early listener notes the form, and
 * the form submits itself once, as soon as its island hydrates.
 */
export function Form(props: Omit<FormHTMLAttributes<HTMLFormElement>, "method">) {
  const form = useRef<HTMLFormElement>(null);
  const label = props["aria-label"];
  useEffect(() => {
    if (!label || window.portalEarlySubmit !== label) return;
    window.portalEarlySubmit = undefined;
    form.current?.requestSubmit();
  }, [label]);
  return <form ref={form} method="post" noValidate {...props} />;
}
