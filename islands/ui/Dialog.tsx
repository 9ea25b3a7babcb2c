import { useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from "react";

/** A dialog must have a name: its own title, or the id of a heading inside it. */
type Label = { title: string; labelledBy?: never } | { labelledBy: string; title?: never };

export type DialogProps = Label & {
  open: boolean;
  /** Called when the dialog closes itself (Escape or its close button); set open to false. */
  onClose: () => void;
  children: ReactNode;
  /** Buttons at its foot, e.g. Close and Save. */
  footer?: ReactNode;
  /**
   * Asked before Escape or the close button closes it: false keeps it open (an editor with
   * unsaved changes asks the person first).
   */
  mayClose?: () => boolean;
};

const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]:not([tabindex='-1'])";

/**
 * Tab from the last control goes to the first, Shift+Tab from the first to the last. A modal
 * <dialog> alone lets Tab leave for the browser's own controls once a loop, which a person
 * sees as the focus dropping off the page.
 */
function keepTabInside(e: KeyboardEvent<HTMLDialogElement>) {
  if (e.key !== "Tab" || e.defaultPrevented) return;
  const stops = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !el.matches(":disabled") && el.getClientRects().length > 0,
  );
  const [first, last] = [stops[0], stops.at(-1)];
  if (!first || !last) return;
  const at = document.activeElement;
  const to = e.shiftKey
    ? at === first || !stops.includes(at as HTMLElement)
      ? last
      : null
    : at === last
      ? first
      : null;
  if (!to) return;
  e.preventDefault();
  to.focus();
}

/**
 * A modal on the native <dialog>: showModal() makes the page behind inert and keeps focus
 * inside (with keepTabInside, round and round); Escape and the close button close it; focus goes back to what opened it.
 * The content mounts only while open, so a form in it starts fresh each time.
 */
export function Dialog({ open, onClose, children, footer, title, labelledBy, mayClose }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  /** Shown and its closing not yet dealt with (focus given back, the parent told). */
  const showing = useRef(false);
  const wanted = useRef(open);
  const titleId = useId();
  /**
   * After the dialog closed, at once: the close event comes a task later, when the person may
   * already have moved on (focus elsewhere, the dialog opened again by Enter on its opener).
   */
  const closed = () => {
    if (!showing.current || ref.current?.open) return;
    // Escape closes without a cancelable cancel event when the page has had no click or
    // typing since the last one (the browser's rule against trapping people): an owner that
    // would have said no gets its dialog back, and asks.
    if (wanted.current && mayClose && !mayClose()) return ref.current?.showModal();
    showing.current = false;
    // Only focus left on nothing or inside the dialog goes back to the opener.
    const at = document.activeElement;
    if (!at || at === document.body || ref.current?.contains(at)) opener.current?.focus();
    opener.current = null;
    // Only a close the parent did not ask for is reported, so onClose runs once per closing.
    if (wanted.current) onClose();
  };
  const close = () => {
    ref.current?.close();
    closed();
  };
  /** Escape or the close button: closes unless the owner keeps it open. */
  const dismiss = (e: { preventDefault(): void }) => {
    if (mayClose && !mayClose()) return e.preventDefault();
    close();
  };
  useLayoutEffect(() => {
    const dialog = ref.current;
    wanted.current = open;
    if (!dialog || open === dialog.open) return;
    if (open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      showing.current = true;
    } else close();
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- close reads refs only
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy ?? titleId}
      onCancel={dismiss}
      onClose={closed}
      onKeyDown={keepTabInside}
    >
      {open && (
        <article>
          <header>
            <button type="button" className="close" aria-label="Close" onClick={dismiss} />
            {title !== undefined && <h2 id={titleId}>{title}</h2>}
          </header>
          {children}
          {footer && <footer>{footer}</footer>}
        </article>
      )}
    </dialog>
  );
}

/** The usual foot of a dialog: a Close button first, then the dialog's own actions. */
export function DialogActions({
  onClose,
  className = "dialog-actions",
  children,
}: {
  onClose: () => void;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div className={`button-row ${className}`}>
      <button type="button" className="secondary" onClick={onClose}>
        Close
      </button>
      {children}
    </div>
  );
}
