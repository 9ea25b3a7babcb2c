import { atom, onMount } from "nanostores";
import { dismissMessage as dismissCall, listMessages, type AccountMessage } from "../api/accounts.ts";
import { getStats, patchSettings, setActiveSubscription, type Stats } from "../api/session.ts";
import { formStore, formTask } from "./formTask.ts";
import { call } from "./http.ts";
import { loadSession } from "./session.ts";

/** The welcome page's data: unread messages and usage against the plan; loads when shown. */
export const $messages = atom<AccountMessage[]>([]);
export const $stats = atom<Stats | null>(null);
/** Busy and errors of the welcome page's actions (loading, dismissing, switching). */
export const $home = formStore();

onMount($messages, () => {
  void loadAccountHome();
});

async function fetchHome() {
  const [messages, stats] = await Promise.all([call(listMessages), call(getStats)]);
  $messages.set(messages);
  $stats.set(stats);
}

/** Loads the messages and the usage of the active subscription. */
export const loadAccountHome = () => formTask($home, fetchHome);

/** Dismisses a message; it disappears at once and stays gone. */
export const dismissMessage = (id: number) =>
  formTask($home, async () => {
    await call(dismissCall, { messageId: id });
    $messages.set($messages.get().filter((m) => m.id !== id));
  });

/** Makes another of the user's subscriptions the active one and reloads what depends on it. */
export const switchSubscription = (subscriptionId: number) =>
  formTask($home, async () => {
    await call(setActiveSubscription, { subscriptionId });
    await loadSession();
    await fetchHome();
  });

/** Busy and errors of the settings form, and whether the last save went through. */
export const $settingsForm = formStore();
export const $settingsSaved = atom(false);

/** Saves the temperature scale and time zone every signed-in page uses. */
export async function saveSettings(settings: { temperatureScale: "C" | "F"; timezone: string }) {
  $settingsSaved.set(false);
  const saved = await formTask($settingsForm, async () => {
    await call(patchSettings, settings);
    await loadSession();
  });
  $settingsSaved.set(saved);
}
