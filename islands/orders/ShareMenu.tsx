import { useStore } from "@nanostores/react";
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
import { useMenuButton } from "../ui/useMenuButton.ts";
import "../../src/styles/share.css";

/**
 * The Share dropdown of a signed-in quote or order page (spec sections 2 and 6). A disclosure
 * button (aria-expanded): Enter or Space opens it, ArrowDown opens it on its first entry, the
 * arrows and Tab move, Escape closes it and gives the focus back to the button. With Get Link as its
 * only entry it is a plain button that opens the link dialog.
 */
export function ShareMenu({ target }: { target: ShareTarget }) {
  useStore($session);
  const choices = shareChoices(target, sessionShareRights());
  const menu = useMenuButton();
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
  const choose = (open: () => void) => {
    // The dialog gives the focus back to what had it: the menu button, not the entry it hides.
    menu.close();
    open();
  };
  return (
    <div className="share-menu" {...menu.rootProps}>
      <button {...menu.buttonProps} className="secondary outline">
        Share
      </button>
      <ul {...menu.listProps}>
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
            <a href={quotePdfHref(target.id)} download onClick={menu.close}>
              {PDF_LABEL}
            </a>
          </li>
        )}
      </ul>
      {dialogs}
    </div>
  );
}
