import ky, { type KyInstance } from "ky";
import { loadConfig, type RuntimeConfig } from "./config.ts";

type Host = "api" | "web" | "account";
const BASE: Record<Host, keyof RuntimeConfig> = { api: "apiBase", web: "webBase", account: "accountBase" };
const clients = new Map<Host, KyInstance>();

/** The one ky instance per host; the session cookie goes with every call. */
export async function client(host: Host): Promise<KyInstance> {
  const existing = clients.get(host);
  if (existing) return existing;
  const config = await loadConfig();
  const instance = ky.create({
    prefix: config[BASE[host]] || (typeof location === "undefined" ? "" : location.origin),
    credentials: "include",
    retry: 0,
    timeout: 30_000,
  });
  clients.set(host, instance);
  return instance;
}
