import { atom } from "nanostores";
import { send } from "./http.ts";
import { loadSession } from "./session.ts";

export interface AccountMessage {
  id: number;
  title: string;
  body: string;
  timeCreated: number;
}
export type Stats = Record<string, number | string | undefined>;

export const $messages = atom<AccountMessage[]>([]);
export const $stats = atom<Stats | null>(null);

/** The welcome page's data: unread messages and usage against the plan. */
export async function loadAccountHome() {
  const [messages, stats] = await Promise.all([
    send<AccountMessage[]>("api", "/api/v1/account-messages", { method: "get" }),
    send<Stats>("api", "/api/v1/session/subscription/stats", { method: "get" }),
  ]);
  $messages.set(messages);
  $stats.set(stats);
}

/** Dismisses a message; it disappears at once and stays gone. */
export async function dismissMessage(id: number) {
  await send("api", "/api/v1/account-messages/dismiss-message", { json: { messageId: id } });
  $messages.set($messages.get().filter((m) => m.id !== id));
}

/** Makes another of the user's subscriptions the active one and reloads what depends on it. */
export async function switchSubscription(subscriptionId: number) {
  await send("api", "/api/v1/session/active-subscription", { json: { subscriptionId } });
  await loadSession();
  await loadAccountHome();
}

/** Saves the temperature scale and time zone every signed-in page uses. */
export async function saveSettings(settings: { temperatureScale: "C" | "F"; timezone: string }) {
  await send("api", "/api/v1/session/settings", { method: "patch", json: settings });
  await loadSession();
}
