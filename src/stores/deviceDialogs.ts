import { atom, computed } from "nanostores";
import { DEFAULT_CSV_NAME, downloadDeviceData } from "../api/deviceData.ts";
import {
  changeDeviceLocation,
  createPublicLink,
  deletePublicLink,
  type DeviceGeneral,
} from "../api/devices.ts";
import type { FieldError } from "../api/errors.ts";
import { publicDevicePath } from "../domain/device.ts";
import { LOCATION_REQUIRED } from "../domain/location.ts";
import { PLAN_MESSAGES, planAllows, type PlanFeature } from "../domain/plan.ts";
import { $deviceRights } from "./device.ts";
import { rangeOf, type RangeDraft } from "./explore.ts";
import { formStore, formTask, showErrors } from "./formTask.ts";
import { call, download, errorsOf, RequestFailure } from "./http.ts";
import { here } from "./navigate.ts";

/* The device header's Update Location, Public Link and Download Device Data dialogs. */

export const LOCATION_FAILED = "Unexpected error updating location. Please try again.";
export const LINK_CREATE_FAILED = "Error creating public link. Please try again.";
export const LINK_DELETE_FAILED = "Error deleting public link. Please try again.";
export const DOWNLOAD_FAILED = "Unexpected error downloading data. Please try again.";

/** Why the plan keeps a dialog's action from this subscription, or null when it allows it. */
export const $planBlocks = computed($deviceRights, (r) => {
  const why = (feature: PlanFeature) => (planAllows(r.features, feature) ? null : PLAN_MESSAGES[feature]);
  return { publicUrl: why("publicUrl"), csvExport: why("csvExport") };
});

/**
 * A failure as the dialog shows it: the server's messages on the named fields (a bad value)
 * or a refusal that says why (403: the plan, the data-age limit); anything else the spec's message.
 */
function failure(e: unknown, fallback: string, fields: readonly string[]): RequestFailure {
  const errors = errorsOf(e);
  const status = e instanceof RequestFailure ? e.status : undefined;
  const onFields = errors.filter((x) => x.field !== null && fields.includes(x.field));
  if (status === 400 && onFields.length) return new RequestFailure(onFields, status);
  if (status === 403 && errors[0])
    return new RequestFailure([{ field: null, message: errors[0].message }], 403);
  return new RequestFailure([{ field: null, message: fallback }], status);
}

/* Update Location (spec sections 5 and 7). */

export interface LocationDraft {
  location: string;
  lat: string;
  lng: string;
}
export const $locationSave = formStore();

/** The form's starting values: the device's location text and coordinates. */
export const locationDraftOf = (device: Pick<DeviceGeneral, "location" | "geocode">): LocationDraft => ({
  location: device.location ?? "",
  lat: device.geocode ? String(device.geocode.lat) : "",
  lng: device.geocode ? String(device.geocode.lng) : "",
});

/**
 * Saves location text and/or coordinates, trimmed; without text and both coordinates it says
 * 'Either location or coordinates (lat/lng) must be provided' and sends nothing.
 */
export async function saveLocation(deviceId: number, draft: LocationDraft): Promise<boolean> {
  const location = draft.location.trim();
  const lat = draft.lat.trim();
  const lng = draft.lng.trim();
  if (!location && !(lat && lng)) {
    showErrors($locationSave, [{ field: null, message: LOCATION_REQUIRED }]);
    return false;
  }
  return formTask($locationSave, async () => {
    const input = {
      id: String(deviceId),
      ...(location ? { location } : {}),
      ...(lat ? { lat } : {}),
      ...(lng ? { lng } : {}),
    };
    await call(changeDeviceLocation, input).catch((e: unknown) => {
      throw failure(e, LOCATION_FAILED, ["location", "lat", "lng"]);
    });
  });
}

/* Public Link (spec sections 4 and 7): none or a hash; create sets it, delete clears it, create again regenerates. */

export const $publicHash = atom<string | null>(null);
export const $publicLinkTask = formStore();
/** True for a moment after the link was copied: the Copy tooltip reads 'Copied!'. */
export const $copied = atom(false);

/** The dialog opens on the device's current link, without the last opening's messages. */
export function showPublicLink(hash: string | null) {
  $publicHash.set(hash);
  $publicLinkTask.set({ busy: false, errors: [] });
  $copied.set(false);
}

/** The address a visitor opens: this site's origin and /p/device/{hash} (or /public/device/ by type). */
export const publicLinkUrl = (deviceType: string, hash: string) =>
  here().origin + publicDevicePath(deviceType, hash);

/** Creates (or regenerates) the device's public link. */
export const makePublicLink = (deviceId: number) =>
  formTask($publicLinkTask, async () => {
    const answer = await call(createPublicLink, undefined, { deviceId }).catch((e: unknown) => {
      throw failure(e, LINK_CREATE_FAILED, []);
    });
    $publicHash.set(answer.publicPageHash);
  });

/** Deletes the device's public link: its page fails from now on. */
export const removePublicLink = (deviceId: number) =>
  formTask($publicLinkTask, async () => {
    await call(deletePublicLink, undefined, { deviceId }).catch((e: unknown) => {
      throw failure(e, LINK_DELETE_FAILED, []);
    });
    $publicHash.set(null);
  });

let copiedTimer: ReturnType<typeof setTimeout> | undefined;
export const COPY_FAILED = "Could not copy. Select the link and copy it yourself.";

/** Puts the text on the clipboard; 'Copied!' shows for two seconds. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    showErrors($publicLinkTask, [{ field: null, message: COPY_FAILED }]);
    return false;
  }
  $copied.set(true);
  clearTimeout(copiedTimer);
  copiedTimer = setTimeout(() => $copied.set(false), 2000);
  return true;
}

/* Download Device Data (spec sections 7 and 9): the last 24 hours by default, or a range in UTC. */

export const $download = formStore();

/** The query of a download: ISO times in UTC, from the picker's preset or its custom range. */
export function downloadQuery(
  draft: RangeDraft,
  now: number,
): { ok: true; startTime: string; endTime: string } | { ok: false; errors: FieldError[] } {
  const range = rangeOf(draft, Math.floor(now), "UTC");
  if (!range.ok) return range;
  const iso = (s: number) => new Date(s * 1000).toISOString().replace(/\.000Z$/, "Z");
  return { ok: true, startTime: iso(range.start), endTime: iso(range.end) };
}

/** The file name of a Content-Disposition (filename* first, then filename), else 'device-data.csv'. */
export function fileNameOf(disposition: string | null): string {
  const header = disposition ?? "";
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  const plain = /filename\s*=\s*("([^"]*)"|[^;\s]+)/i.exec(header);
  let name = "";
  try {
    name = star ? decodeURIComponent(star.trim()) : "";
  } catch {
    name = "";
  }
  name ||= plain?.[2] ?? plain?.[1] ?? "";
  // A name is a name, never a path.
  name = name.replace(/[\\/\p{Cc}]/gu, "").trim();
  return name || DEFAULT_CSV_NAME;
}

/** The failure of a download answer: its error envelope when it sent one. */
/**
 * Fetches the device's CSV for the range (a blob; the contract's answer is text/csv, not the
 * JSON envelope `call` reads) and its file name. Field messages go beside the range's fields.
 */
export async function fetchDeviceCsv(
  deviceId: number,
  draft: RangeDraft,
  now: number,
): Promise<{ blob: Blob; fileName: string } | null> {
  const query = downloadQuery(draft, now);
  if (!query.ok) {
    showErrors($download, query.errors);
    return null;
  }
  let file: { blob: Blob; fileName: string } | null = null;
  await formTask($download, async () => {
    try {
      const range = { startTime: query.startTime, endTime: query.endTime };
      const res = await download(downloadDeviceData, range, { deviceId });
      file = { blob: await res.blob(), fileName: fileNameOf(res.headers.get("content-disposition")) };
    } catch (e) {
      throw failure(e, DOWNLOAD_FAILED, []);
    }
  });
  return file;
}
