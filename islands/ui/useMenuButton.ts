import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";

/** Moves the focus among an open menu's entries: arrows step and wrap, Home and End jump. */
function moveFocus(e: KeyboardEvent<HTMLUListElement>) {
  const items = [...e.currentTarget.querySelectorAll<HTMLElement>("button, a")];
  const at = items.indexOf(document.activeElement as HTMLElement);
  const to: Record<string, number> = {
    ArrowDown: (at + 1) % items.length,
    ArrowUp: (at - 1 + items.length) % items.length,
    Home: 0,
    End: items.length - 1,
  };
  const next = to[e.key];
  if (next === undefined) return;
  e.preventDefault();
  items[next]?.focus();
}

/**
 * A disclosure menu button (the device header's menu, the Share menu): aria-expanded on the
 * button, Enter or Space toggles, ArrowDown opens on the first entry, the arrows, Home and End
 * move among the entries, Escape closes and gives the focus back to the button, and a click or
 * focus outside closes it. Spread the returned props on the wrapper, button and list.
 */
export function useMenuButton() {
  const [expanded, setExpanded] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const listId = useId();
  useEffect(() => {
    if (!expanded) return;
    const outside = (e: Event) => root.current?.contains(e.target as Node) || setExpanded(false);
    document.addEventListener("pointerdown", outside);
    document.addEventListener("focusin", outside);
    return () => {
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("focusin", outside);
    };
  }, [expanded]);
  /** Closes the menu and gives the focus back to its button (a dialog opened from it returns there too). */
  const close = () => {
    setExpanded(false);
    button.current?.focus();
  };
  return {
    expanded,
    setExpanded,
    close,
    rootProps: {
      ref: root,
      onKeyDown: (e: KeyboardEvent) => {
        if (e.key !== "Escape" || !expanded) return;
        e.preventDefault();
        close();
      },
    },
    buttonProps: {
      ref: button,
      type: "button" as const,
      "aria-expanded": expanded,
      "aria-controls": listId,
      onClick: () => setExpanded(!expanded),
      onKeyDown: (e: KeyboardEvent) => {
        if (e.key !== "ArrowDown") return;
        e.preventDefault();
        setExpanded(true);
        requestAnimationFrame(() => list.current?.querySelector<HTMLElement>("button, a")?.focus());
      },
    },
    listProps: { id: listId, ref: list, hidden: !expanded, onKeyDown: moveFocus },
  };
}
