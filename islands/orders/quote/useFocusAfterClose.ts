import { useEffect, useRef } from "react";

/**
 * islands/ui/Dialog.tsx gives the focus back to the control that opened the dialog. When
 * that control is gone (the dialog opened by itself as the page loaded, or its opener was
 * replaced meanwhile), the focus would fall to <body>: this puts it on the element with the
 * id given while the dialog was open. `fallbackId` is null while the dialog is closed.
 */
export function useFocusAfterClose(fallbackId: string | null) {
  const last = useRef<string | null>(null);
  useEffect(() => {
    if (fallbackId !== null) {
      last.current = fallbackId;
      return;
    }
    const id = last.current;
    last.current = null;
    if (id === null) return;
    // The dialog's close event, which focuses its opener, is queued first: look after it.
    const timer = setTimeout(() => {
      const at = document.activeElement;
      if (!at || at === document.body) document.getElementById(id)?.focus();
    }, 0);
    return () => clearTimeout(timer);
  }, [fallbackId]);
}
