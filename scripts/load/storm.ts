// Sign-ins through the real form call (scrypt, 32 MiB), each from its own address.
import { STORM_PASSWORD, stormEmail } from "./fixtures.ts";

const form = (emailAddress: string, password: string) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({ emailAddress, password }).toString(),
});

/** Signs the demo viewer in and returns the session cookie header. */
export async function sessionCookie(base: string): Promise<string> {
  const res = await fetch(`${base}/gateway/submit`, form("viewer@example.com", STORM_PASSWORD));
  if (!res.ok) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/**
 * `count` people signing in at once, person i from address 10.{net}.x.y (every attempt counts
 * against its address's limit of 100 per 15 minutes, so each storm takes its own net) (the server trusts the
 * proxy's X-Forwarded-For, as in production behind one). The hashing queue refuses what it
 * cannot take with 429 "busy"; each person then tries again 250 ms later, as the message
 * asks, until signed in, so hashing stays at capacity for the whole storm.
 */
export async function signInStorm(base: string, count: number, net = 77) {
  const started = performance.now();
  const byStatus = new Map<number, number>();
  const person = async (i: number) => {
    const init = form(stormEmail(i), STORM_PASSWORD);
    for (let attempt = 0; attempt < 400; attempt++) {
      const res = await fetch(`${base}/gateway/submit`, {
        ...init,
        headers: { ...init.headers, "x-forwarded-for": `10.${net}.${i >> 8}.${i & 255}` },
      });
      await res.arrayBuffer();
      byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
      if (res.status !== 429) return res.status;
      await new Promise((r) => setTimeout(r, 250));
    }
    return 429;
  };
  const outcomes = await Promise.all(Array.from({ length: count }, (_, i) => person(i)));
  return {
    seconds: (performance.now() - started) / 1000,
    statuses: [...byStatus].map(([s, n]) => `${s}×${n}`).join(" "),
    serverErrors: [...byStatus].filter(([s]) => s >= 500 || s === 0).reduce((sum, [, n]) => sum + n, 0),
    signedIn: outcomes.filter((s) => s === 200).length,
  };
}
