import type { ButtonHTMLAttributes } from "react";

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "children" | "type"> {
  busy: boolean;
  label: string;
  /** Shown while busy, e.g. 'Authenticating...'. */
  busyLabel: string;
  type?: "submit" | "button" | "reset";
}

/** A button that says it is working and cannot be pressed twice while it does. */
export function BusyButton({ busy, label, busyLabel, type = "submit", disabled, ...rest }: Props) {
  return (
    <button {...rest} type={type} aria-busy={busy} disabled={busy || disabled}>
      {busy ? busyLabel : label}
    </button>
  );
}
