// Kept apart from dates.ts so that checking a zone name (the settings contract does it in
// every page that reaches the API) does not pull the Temporal polyfill into the browser.

/** True when the runtime knows the IANA zone name. */
export function isKnownTimezone(zone: string): boolean {
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
    return zone.trim() !== "" && resolved !== "";
  } catch {
    return false;
  }
}
