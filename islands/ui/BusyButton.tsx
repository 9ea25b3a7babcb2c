import type { ButtonHTMLAttributes, MouseEvent, ReactNode } from "react";
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
  /**
   * Pressable before the island hydrates, with its own label: the page's early script
   * (src/components/EarlySubmit.astro) holds a press and sends it once the island runs. For
   * the cards a person uses first thing on a slow link (sign-in, register, reset request),
   * where "Loading..." on a disabled button for seconds reads as broken. Only on a page
   * that carries that script.
   */
  early?: boolean;
}

/**
 * A button that says it is working and cannot be pressed twice while it does. Until the
 * island hydrates it is disabled and reads "Loading...": the server-rendered form around it
 * cannot be sent by a click or by Enter before the script that sends it properly runs
 * (a form whose default button is disabled is not submitted implicitly). While busy it is only
 * aria-disabled and swallows clicks (Enter's implicit submit is a click on it too): a disabled
 * button drops the keyboard's focus to the page body, and the person loses their place.
 */
export function BusyButton({
  busy,
  busyLabel,
  children,
  type = "submit",
  disabled,
  onClick,
  early = false,
  ...rest
}: Props) {
  const ready = useHydrated();
  const waiting = !ready && !early;
  const ignore = (e: MouseEvent<HTMLButtonElement>) => {
    if (busy) return e.preventDefault();
    onClick?.(e);
  };
  return (
    <button
      {...rest}
      type={type}
      aria-busy={busy || waiting}
      aria-disabled={busy || undefined}
      disabled={waiting || disabled}
      data-early={(early && !ready) || undefined}
      onClick={ignore}
    >
      {waiting ? LOADING_LABEL : busy ? busyLabel : children}
    </button>
  );
}
