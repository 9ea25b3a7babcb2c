import { atom, computed, map, onMount } from "nanostores";
import { exportAudit, listAudit, verifyAuditTrail, type AuditEntry } from "../api/audit.ts";
import type { RequestOf } from "../api/endpoint.ts";
import { isKnownTimezone } from "../domain/timezones.ts";
import { fileNameOf } from "./deviceDialogs.ts";
import { zonedToEpoch } from "./explore.ts";
import { call, download, errorsOf } from "./http.ts";
import { queryParam } from "./navigate.ts";
import { $session } from "./session.ts";
import { sessionMay } from "./tags.ts";

/*
 * /s/audit (issue 37): the subscription's audit trail for Administrators, filtered by person,
 * device, action and date; the chain check; the CSV export. The server checks the role again.
 */

export const AUDIT_LOAD_FAILED = "Unexpected error loading the audit trail. Please try again.";
export const EXPORT_FAILED = "The export did not download. Please try again.";

/** The person's zone (dates in the filter and times in the list and the export) and right to see. */
export const $auditPrefs = computed($session, (s) => {
  if (s.status !== "signedIn") return { zone: "UTC", allowed: false };
  return {
    zone: isKnownTimezone(s.info.timezone) ? s.info.timezone : "UTC",
    allowed: sessionMay("audit.view"),
  };
});

/** The filters as typed: dates are the person's calendar days (YYYY-MM-DD), both ends included. */
export const $auditFilter = map({ actor: "", deviceId: "", action: "", from: "", to: "" });

type Page = { entries: AuditEntry[]; next: number | null; actors: string[]; actions: string[] };
export const $audit = atom<
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; page: Page; more: boolean }
>({ status: "loading" });
onMount($audit, () => {
  // A link may name a device (the device page's Device History), a person or an action.
  for (const key of ["deviceId", "actor", "action"] as const) {
    const value = queryParam(key);
    if (value) $auditFilter.setKey(key, value);
  }
  void loadAudit();
});

/** The filter as the API takes it: days become the instants that start and end them in the zone. */
export function auditQuery(f: typeof $auditFilter.value, zone: string) {
  const day = (d: string) => (/^\d{4}-\d\d-\d\d$/.test(d) ? zonedToEpoch(`${d}T00:00`, zone) : null);
  const from = day(f.from);
  const to = day(f.to);
  return {
    ...(f.actor ? { actor: f.actor } : {}),
    ...(f.deviceId ? { deviceId: f.deviceId } : {}),
    ...(f.action ? { action: f.action } : {}),
    ...(from === null ? {} : { from: String(from) }),
    // The end day is included: up to the start of the next (a DST day may be 23 or 25 hours).
    ...(to === null ? {} : { to: String(zonedToEpoch(nextDay(f.to), zone) ?? to + 86_400) }),
  } satisfies RequestOf<typeof listAudit>;
}

const nextDay = (d: string) => {
  const next = new Date(`${d}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return `${next.toISOString().slice(0, 10)}T00:00`;
};

let asked = 0;

/** The first page for the filters (or, with `more`, the page after the one shown). */
export async function loadAudit(more = false) {
  const shown = $audit.get();
  const before = more && shown.status === "ready" ? shown.page.next : null;
  const ask = ++asked;
  if (!more) $audit.set({ status: "loading" });
  else if (shown.status === "ready") $audit.set({ ...shown, more: true });
  try {
    const query = auditQuery($auditFilter.get(), $auditPrefs.get().zone);
    const page = await call(listAudit, before === null ? query : { ...query, before: String(before) });
    if (ask !== asked) return;
    const entries =
      more && shown.status === "ready" ? [...shown.page.entries, ...page.entries] : page.entries;
    $audit.set({ status: "ready", page: { ...page, entries }, more: false });
  } catch (e) {
    if (ask === asked)
      $audit.set({ status: "failed", message: errorsOf(e)[0]?.message ?? AUDIT_LOAD_FAILED });
  }
}

/** Sets one filter and reloads; the integrity check's answer was for the filters before, so it goes. */
export function setAuditFilter(key: keyof typeof $auditFilter.value, value: string) {
  $auditFilter.setKey(key, value);
  if ($auditCheck.get().status !== "checking") $auditCheck.set({ status: "idle" });
  void loadAudit();
}

export const $auditCheck = atom<
  | { status: "idle" }
  | { status: "checking" }
  | {
      status: "done";
      rows: number;
      intact: boolean;
      first: { seq: number; why: string } | null;
      faults: number;
      /** When the newest head kept outside the database that the chain matched was sealed (ISO). */
      anchoredAt: string | null;
    }
  | { status: "failed"; message: string }
>({ status: "idle" });

/** Walks the chain on the server and says whether every row fits. */
export async function checkAudit() {
  $auditCheck.set({ status: "checking" });
  try {
    const r = await call(verifyAuditTrail, undefined);
    $auditCheck.set({
      status: "done",
      rows: r.rows,
      intact: r.intact,
      first: r.firstFault,
      faults: r.faults,
      anchoredAt: r.anchoredAt,
    });
  } catch (e) {
    $auditCheck.set({ status: "failed", message: errorsOf(e)[0]?.message ?? AUDIT_LOAD_FAILED });
  }
}

/** The CSV of the filtered trail, times in the person's zone, and its file name. */
export async function fetchAuditCsv(): Promise<{ blob: Blob; fileName: string } | { error: string }> {
  const { zone } = $auditPrefs.get();
  try {
    const res = await download(exportAudit, { ...auditQuery($auditFilter.get(), zone), timezone: zone });
    return { blob: await res.blob(), fileName: fileNameOf(res.headers.get("content-disposition")) };
  } catch (e) {
    return { error: errorsOf(e)[0]?.message ?? EXPORT_FAILED };
  }
}
