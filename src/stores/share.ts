import { getPagePath } from "@nanostores/router";
import { atom, map } from "nanostores";
import { GRANT_ACCESS_MESSAGES, grantAccountAccess, inviteSentMessage } from "../api/grantAccess.ts";
import type { FieldError } from "../api/errors.ts";
import { ORDER_PREFIX } from "../domain/order.ts";
import { publicQuotePath } from "../domain/paths.ts";
import { $config } from "./config.ts";
import { formStore, formTask } from "./formTask.ts";
import { call, RequestFailure } from "./http.ts";
import { here } from "./navigate.ts";
import { $router } from "./router.ts";
import { $session } from "./session.ts";
import { sessionMay } from "./tags.ts";

/*
 * The Share dropdown of the signed-in quote and order pages (spec sections 2 and 6): Get Link
 * To This Quote/Order, Grant Account Access and Download PDF (quotes only), and the state and
 * calls of their dialogs.
 */

/** The record a Share menu belongs to. */
export interface ShareTarget {
  kind: "quote" | "order";
  id: number;
  /** QUO-1001 or ORD-5003. */
  number: string;
  /** Orders are always open; a quote is open unless its status is Closed. */
  open: boolean;
  /** An order's public page, as the server gives it to those who may share it. */
  publicPath?: string | null;
}

/** Which entries the menu holds; all false means no menu at all. */
export interface ShareChoices {
  link: boolean;
  grant: boolean;
  pdf: boolean;
}

/** The person's rights that shape the menu (spec section 6). */
export interface ShareRights {
  shareLink: boolean;
  grantAccess: boolean;
}

/**
 * Spec section 6: share-link privileges give Get Link; grant-access privileges give the menu
 * with Get Link, Grant Account Access and Download PDF (quotes only). By the quote's status
 * (docs/decisions.md): a closed quote offers no Grant Account Access, nothing being left to act on.
 */
export function shareChoices(target: ShareTarget, rights: ShareRights): ShareChoices {
  const isQuote = target.kind === "quote";
  return {
    link: rights.shareLink || rights.grantAccess,
    grant: rights.grantAccess && target.open,
    pdf: rights.grantAccess && isQuote,
  };
}

/** The signed-in person's share rights in the active subscription (the server checks too). */
export function sessionShareRights(): ShareRights {
  return { shareLink: sessionMay("share.link"), grantAccess: sessionMay("access.grant") };
}

/** The menu entries' labels (spec section 2). */
export const linkLabel = (kind: ShareTarget["kind"]) =>
  kind === "quote" ? "Get Link To This Quote" : "Get Link To This Order";
export const GRANT_LABEL = "Grant Account Access";
export const PDF_LABEL = "Download PDF";
/** The Copy button's tooltip after a copy (spec section 2). */
export const COPIED = "Copied!";
export const COPY_REFUSED = "Your browser did not allow copying: select the link and copy it.";

/**
 * The link a Get Link dialog shows: the record's public page, which anyone with the link can
 * open (spec section 2's shareable form: the summary and a sign-in card). A quote's is
 * /p/quote/QUO-{n}; an order's needs its validation id, which the server gives only to those
 * who may share (publicPath); without it, the signed-in page, which members can open.
 */
export function shareLink(target: ShareTarget): string {
  const path =
    target.kind === "quote"
      ? publicQuotePath(target.id)
      : (target.publicPath ?? getPagePath($router, "orderDetails", { id: `${ORDER_PREFIX}${target.id}` }));
  return here().origin + path;
}

/** The quote's PDF on the web host (GET /quote/requested-pdf/{quoteId}, spec section 7). */
export function quotePdfHref(quoteId: number): string {
  return `${$config.get().webBase}/quote/requested-pdf/${quoteId}`;
}

/** The Get Link dialog: its link, and whether the last Copy worked. */
export const $linkDialog = map<{ open: boolean; url: string; copy: "idle" | "copied" | "refused" }>({
  open: false,
  url: "",
  copy: "idle",
});

export function openLinkDialog(target: ShareTarget) {
  $linkDialog.set({ open: true, url: shareLink(target), copy: "idle" });
}

export function closeLinkDialog() {
  $linkDialog.set({ ...$linkDialog.get(), open: false, copy: "idle" });
}

const COPIED_FOR_MS = 2000;
let copiedTimer: ReturnType<typeof setTimeout> | undefined;

/** Copies the link; 'Copied!' shows for two seconds. A refused clipboard says to copy by hand. */
export async function copyLink() {
  const { url } = $linkDialog.get();
  clearTimeout(copiedTimer);
  try {
    await navigator.clipboard.writeText(url);
    $linkDialog.setKey("copy", "copied");
    copiedTimer = setTimeout(() => {
      if ($linkDialog.get().copy === "copied") $linkDialog.setKey("copy", "idle");
    }, COPIED_FOR_MS);
  } catch {
    $linkDialog.setKey("copy", "refused");
  }
}

/** The Grant Account Access dialog: for which record, and what it says after sending. */
export const $grantDialog = atom<{ open: boolean; target: ShareTarget | null; sent: string | null }>({
  open: false,
  target: null,
  sent: null,
});
export const $grantForm = formStore();

/** A federated subscription grants access through its identity provider only (spec section 6). */
export function federated(): boolean {
  const s = $session.get();
  return s.status === "signedIn" && s.info.activeSubscription.samlEnabled;
}

export function openGrantDialog(target: ShareTarget) {
  $grantForm.set({ busy: false, errors: [] });
  $grantDialog.set({ open: true, target, sent: null });
}

export function closeGrantDialog() {
  $grantDialog.set({ ...$grantDialog.get(), open: false });
}

/**
 * A failure as the dialog shows it: the server's own words when it answered with a reason
 * (a field error, the federated message, already a member), 'Unexpected Error.' otherwise.
 */
function grantFailure(e: unknown): RequestFailure {
  const status = e instanceof RequestFailure ? e.status : undefined;
  const errors: FieldError[] = e instanceof RequestFailure ? e.errors : [];
  const said = status !== undefined && status < 500 && errors.length > 0;
  return new RequestFailure(said ? errors : [{ field: null, message: GRANT_ACCESS_MESSAGES.failed }], status);
}

/** Sends the grant for the dialog's record; 'Invite sent to {email}' on success. */
export async function submitGrant(emailAddress: string) {
  const { target } = $grantDialog.get();
  if (!target) return;
  await formTask($grantForm, async () => {
    try {
      const email = emailAddress.trim();
      await call(grantAccountAccess, {
        isQuote: target.kind === "quote" ? "true" : "false",
        resourceId: String(target.id),
        emailAddress: email,
      });
      $grantDialog.set({ ...$grantDialog.get(), sent: inviteSentMessage(email) });
    } catch (e) {
      throw grantFailure(e);
    }
  });
}
