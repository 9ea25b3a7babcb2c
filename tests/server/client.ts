import type { buildApp } from "../../server/app.ts";

/** A browser-like caller of the app: keeps cookies, sends forms and JSON. */
export function browser(app: ReturnType<typeof buildApp>, origin = "http://localhost") {
  const jar = new Map<string, string>();
  const store = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (/max-age=0/i.test(line) || value === "") jar.delete(name!.trim());
      else jar.set(name!.trim(), value);
    }
    return res;
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const request = async (path: string, init: RequestInit = {}) =>
    store(
      await app.request(`${origin}${path}`, {
        ...init,
        headers: { origin, cookie: cookie(), ...init.headers },
      }),
    );
  return {
    jar,
    get: (path: string, headers: Record<string, string> = {}) => request(path, { headers }),
    form: (path: string, fields: Record<string, string>) =>
      request(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      }),
    json: (path: string, body: unknown, method = "POST") =>
      request(path, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    delete: (path: string) => request(path, { method: "DELETE" }),
  };
}
export type Browser = ReturnType<typeof browser>;

/** Signs in with email and password (no one-time code). */
export async function signIn(b: Browser, email: string, password = "demo-password-1") {
  const res = await b.form("/gateway/submit", { emailAddress: email, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res;
}
