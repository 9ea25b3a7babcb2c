import { useStore } from "@nanostores/react";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { $session } from "../../src/stores/session.ts";
import {
  GRANT_LABEL,
  linkLabel,
  openGrantDialog,
  openLinkDialog,
  PDF_LABEL,
  quotePdfHref,
  sessionShareRights,
  shareChoices,
  type ShareTarget,
} from "../../src/stores/share.ts";
import { GrantAccessDialog } from "./GrantAccessDialog.tsx";
import { ShareLinkDialog } from "./ShareLinkDialog.tsx";
import "../../src/styles/share.css";

/** Moves the focus among the open menu's entries: arrows step and wrap, Home and End jump. */
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
 * The Share dropdown of a signed-in quote or order page (spec sections 2 and 6). A disclosure
 * button (aria-expanded): Enter or Space opens it, ArrowDown opens it on its first entry, the
 * arrows and Tab move, Escape closes it and gives the focus back to the button. With Get Link as its
 * only entry it is a plain button that opens the link dialog.
 */
export function ShareMenu({ target }: { target: ShareTarget }) {
  useStore($session);
  const choices = shareChoices(target, sessionShareRights());
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
  if (!choices.link) return null;
  const dialogs = (
    <>
      <ShareLinkDialog kind={target.kind} />
      <GrantAccessDialog />
    </>
  );
  if (!choices.grant && !choices.pdf)
    return (
      <div className="share-menu">
        <button type="button" className="secondary outline" onClick={() => openLinkDialog(target)}>
          {linkLabel(target.kind)}
        </button>
        {dialogs}
      </div>
    );
  const close = () => {
    setExpanded(false);
    button.current?.focus();
  };
  const choose = (open: () => void) => {
    // The dialog gives the focus back to what had it: the menu button, not the entry it hides.
    close();
    open();
  };
  const openOnFirst = () => {
    setExpanded(true);
    requestAnimationFrame(() => list.current?.querySelector<HTMLElement>("button, a")?.focus());
  };
  return (
    <div
      className="share-menu"
      ref={root}
      onKeyDown={(e) => {
        if (e.key !== "Escape" || !expanded) return;
        e.preventDefault();
        close();
      }}
    >
      <button
        ref={button}
        type="button"
        className="secondary outline"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => setExpanded(!expanded)}
        onKeyDown={(e) => {
          if (e.key !== "ArrowDown") return;
          e.preventDefault();
          openOnFirst();
        }}
      >
        Share
      </button>
      <ul id={listId} ref={list} hidden={!expanded} onKeyDown={moveFocus}>
        <li>
          <button type="button" onClick={() => choose(() => openLinkDialog(target))}>
            {linkLabel(target.kind)}
          </button>
        </li>
        {choices.grant && (
          <li>
            <button type="button" onClick={() => choose(() => openGrantDialog(target))}>
              {GRANT_LABEL}
            </button>
          </li>
        )}
        {choices.pdf && (
          <li>
            <a href={quotePdfHref(target.id)} download onClick={() => setExpanded(false)}>
              {PDF_LABEL}
            </a>
          </li>
        )}
      </ul>
      {dialogs}
    </div>
  );
}
