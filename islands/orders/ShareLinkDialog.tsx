import { useStore } from "@nanostores/react";
import {
  $linkDialog,
  closeLinkDialog,
  COPIED,
  COPY_REFUSED,
  copyLink,
  linkLabel,
  type ShareTarget,
} from "../../src/stores/share.ts";
import { Dialog, DialogActions } from "../ui/Dialog.tsx";

/**
 * Get Link To This Quote/Order (spec section 2, Dialogs): the link in a read-only field (so
 * it can be selected and copied where the clipboard is refused) and Copy, whose tooltip
 * reads 'Copied!' after a copy.
 */
export function ShareLinkDialog({ kind }: { kind: ShareTarget["kind"] }) {
  const { open, url, copy } = useStore($linkDialog);
  return (
    <Dialog
      title={linkLabel(kind)}
      open={open}
      onClose={closeLinkDialog}
      footer={<DialogActions onClose={closeLinkDialog} />}
    >
      <label htmlFor="share-link-url">Link</label>
      <div className="share-link-row">
        <input
          id="share-link-url"
          type="url"
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          aria-describedby={copy === "refused" ? "share-link-refused" : undefined}
        />
        <span className="share-copy-anchor">
          <button type="button" onClick={() => void copyLink()}>
            Copy
          </button>
          {/* Always present, so screen readers announce 'Copied!' when it appears. */}
          <span role="status" className={copy === "copied" ? "share-copied shown" : "share-copied"}>
            {copy === "copied" ? COPIED : ""}
          </span>
        </span>
      </div>
      {copy === "refused" && (
        <small id="share-link-refused" role="alert">
          {COPY_REFUSED}
        </small>
      )}
    </Dialog>
  );
}
