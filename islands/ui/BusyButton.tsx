import type { ButtonHTMLAttributes, ReactNode } from "react";
import { useHydrated } from "./useHydrated.ts";

/** What a busy button reads until its island's script has run. */
export const LOADING_LABEL = "Loading...";

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type"> {
  busy: boolean;
  /** Shown while busy, e.g. 'Authenticating...'. */
  busyLabel: string;
  children: ReactNode;
  /** A form's submit button by default. */
  type?: "submit" | "button";
}

/**
 * A button that says it is working and cannot be pressed twice while it does. Until the
 * island hydrates it is disabled and reads "Loading...": the server-rendered form around it
 * cannot be sent by a click or by Enter before the script that sends it properly runs
 * (a form whose default button is disabled is not submitted implicitly).
 */
export function BusyButton({ busy, busyLabel, children, type = "submit", disabled, ...rest }: Props) {
  const ready = useHydrated();
  const waiting = busy || !ready;
  return (
    <button {...rest} type={type} aria-busy={waiting} disabled={waiting || disabled}>
      {!ready ? LOADING_LABEL : busy ? busyLabel : children}
    </button>
  );
}
