/**
 * The address typed into the sign-in card, handed to the reset page that "Forgot Password"
 * opens in a new tab. Not in the address (issue 6: no email addresses in URLs) and not in
 * sessionStorage (a tab opened with noopener starts with an empty one): in localStorage,
 * read once, and worthless after two minutes.
 */
const KEY = "portal.reset-address";
const LIFETIME_MS = 120_000;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage switched off
  }
}

/** Keeps the address for the reset page about to open. */
export function handOverAddress(email: string, now = Date.now()) {
  if (email) storage()?.setItem(KEY, JSON.stringify({ email, until: now + LIFETIME_MS }));
}

/** The address handed over, once: reading removes it; a stale one is ignored. */
export function takeHandedOverAddress(now = Date.now()): string | null {
  const store = storage();
  const text = store?.getItem(KEY);
  store?.removeItem(KEY);
  try {
    const kept = JSON.parse(text ?? "null") as { email?: unknown; until?: unknown } | null;
    const fresh = typeof kept?.until === "number" && now <= kept.until;
    return fresh && typeof kept.email === "string" ? kept.email : null;
  } catch {
    return null; // not ours
  }
}
