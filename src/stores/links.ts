import { atom } from "nanostores";
import { getLink } from "../api/links.ts";
import type { DeviceListItem } from "../api/devices.ts";
import { MAX_ID } from "../api/fields.ts";
import { call, RequestFailure } from "./http.ts";

/* The link page (/links/{linkId}): a link of the active subscription and its devices. */

export const LINK_NOT_FOUND = "This link was not found in your subscription.";
export const LINK_LOAD_FAILED = "Unexpected error loading link. Please try again.";

export type LinkState =
  | { status: "loading" }
  | { status: "ready"; link: { id: number; name: string }; devices: DeviceListItem[] }
  | { status: "error"; message: string };

export const $link = atom<LinkState>({ status: "loading" });

let asked = 0;

/** Loads the link of the address (its id as text); a malformed, foreign or missing id is not found. */
export async function loadLink(idText: string | undefined) {
  const ask = ++asked;
  if (!idText || !/^\d{1,10}$/.test(idText) || Number(idText) < 1 || Number(idText) > MAX_ID)
    return $link.set({ status: "error", message: LINK_NOT_FOUND });
  $link.set({ status: "loading" });
  try {
    const { link, deviceList } = await call(getLink, undefined, { linkId: idText });
    if (ask === asked) $link.set({ status: "ready", link, devices: deviceList });
  } catch (e) {
    const missing = e instanceof RequestFailure && e.status === 404;
    if (ask === asked) $link.set({ status: "error", message: missing ? LINK_NOT_FOUND : LINK_LOAD_FAILED });
  }
}
