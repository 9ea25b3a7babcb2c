import { useEffect, useRef, useState } from "react";

/**
 * An editor's unsaved changes, kept from being lost by accident: `leave` closes at once when
 * nothing changed, else asks first (`asking`, answered by `keep` or `discard`); closing or
 * reloading the tab, or following a link away (the app's links load their page), gets the
 * browser's own question while changes are unsaved.
 */
export function useUnsaved(open: boolean, close: () => void) {
  const dirty = useRef(false);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!open) {
      dirty.current = false;
      return;
    }
    const warn = (e: BeforeUnloadEvent) => {
      if (!dirty.current) return;
      e.preventDefault();
      // Older browsers ask only when returnValue is set.
      e.returnValue = "";
    };
    addEventListener("beforeunload", warn);
    return () => removeEventListener("beforeunload", warn);
  }, [open]);
  /** True when the editor may close now; else the question is asked. */
  const mayLeave = () => {
    if (!dirty.current) return true;
    setAsking(true);
    return false;
  };
  return {
    asking,
    /** The form says whether what it holds differs from what it started with. */
    setDirty: (d: boolean) => void (dirty.current = d),
    mayLeave,
    leave: () => void (mayLeave() && close()),
    keep: () => setAsking(false),
    discard: () => {
      setAsking(false);
      dirty.current = false;
      close();
    },
  };
}
