import { atom, computed, map, onMount } from "nanostores";
import { createRule, deleteRule, listRules, updateRule, type Rule, type RuleInput } from "../api/alerts.ts";
import { acknowledgeAlarm, getAlarm, listAlarms, type Alarm } from "../api/alarms.ts";
import { getChannelList, type ChannelListEntry } from "../api/deviceData.ts";
import { listDevices, type DeviceListItem } from "../api/devices.ts";
import { listTags, type Tag } from "../api/tags.ts";
import type { RequestOf, ResponseOf } from "../api/endpoint.ts";
import { alarmOrder, isActive, type AlarmState, type Severity } from "../domain/alerts.ts";
import { roleMay } from "../domain/permissions.ts";
import { isRoleId } from "../domain/roles.ts";
import { resolveTemperatureScale } from "../domain/temperature.ts";
import { isKnownTimezone } from "../domain/timezones.ts";
import { formTask, formStore, type FormState } from "./formTask.ts";
import { call, errorsOf } from "./http.ts";
import { $session } from "./session.ts";

/*
 * /s/alerts and the alarm states shown elsewhere (home, device list, device page): the alarms,
 * the rules and their editor, and acknowledging. The server checks every role again.
 */

export const ALARMS_LOAD_FAILED = "Unexpected error loading alarms. Please try again.";
export const RULES_LOAD_FAILED = "Unexpected error loading alert rules. Please try again.";

type Loaded<T> =
  { status: "loading" } | { status: "failed"; message: string } | { status: "ready"; value: T };

/** What the person may do here, their scale and zone. */
export const $alertPrefs = computed($session, (s) => {
  if (s.status !== "signedIn")
    return { scale: "F" as const, zone: "UTC", editable: false, acknowledges: false, userId: 0 };
  const role = s.info.activeSubscription.role.id;
  return {
    scale: resolveTemperatureScale(s.info.temperatureScale),
    zone: isKnownTimezone(s.info.timezone) ? s.info.timezone : "UTC",
    editable: isRoleId(role) && roleMay(role, "alert.edit"),
    acknowledges: isRoleId(role) && roleMay(role, "alert.acknowledge"),
    userId: s.info.userId,
  };
});

/** Active only, or every alarm (cleared ones too). */
export const $alarmScope = atom<"active" | "all">("active");
export const $alarms = atom<Loaded<Alarm[]>>({ status: "loading" });
onMount($alarms, () => {
  void loadAlarms();
});

export async function loadAlarms() {
  try {
    const { alarms } = await call(listAlarms, { state: $alarmScope.get() });
    $alarms.set({ status: "ready", value: [...alarms].sort(byUrgency) });
  } catch (e) {
    $alarms.set({ status: "failed", message: errorsOf(e)[0]?.message ?? ALARMS_LOAD_FAILED });
  }
}

export function showAlarms(scope: "active" | "all") {
  $alarmScope.set(scope);
  void loadAlarms();
}

const byUrgency = (a: Alarm, b: Alarm) =>
  alarmOrder(
    { state: a.state as AlarmState, severity: a.severity as Severity, id: a.id },
    { state: b.state as AlarmState, severity: b.severity as Severity, id: b.id },
  );

/** Active alarms for a glance (home, device list, device page): refreshed on demand. */
export const $activeAlarms = atom<Alarm[]>([]);
export async function loadActiveAlarms(deviceId?: number) {
  try {
    const { alarms } = await call(
      listAlarms,
      deviceId ? { state: "active", deviceId: String(deviceId) } : { state: "active" },
    );
    $activeAlarms.set([...alarms].sort(byUrgency));
  } catch {
    // A glance that fails shows no alarm state; /s/alerts says why.
  }
}
/** Device ids with an active alarm, and channel keys in alarm. */
export const $alarmIndex = computed($activeAlarms, (list) => ({
  devices: new Set(list.filter((a) => isActive(a.state as AlarmState)).map((a) => a.deviceId)),
  channels: new Set(list.filter((a) => a.channelKey).map((a) => a.channelKey!)),
  triggered: list.filter((a) => a.state === "triggered").length,
}));

export const $rules = atom<Loaded<ResponseOf<typeof listRules>>>({ status: "loading" });
onMount($rules, () => {
  void loadRules();
});
export async function loadRules() {
  try {
    $rules.set({ status: "ready", value: await call(listRules) });
  } catch (e) {
    $rules.set({ status: "failed", message: errorsOf(e)[0]?.message ?? RULES_LOAD_FAILED });
  }
}

/** The alarm whose history is open, with its delivery log. */
export const $alarmDetail = atom<Loaded<ResponseOf<typeof getAlarm>> | null>(null);
export async function openAlarm(id: number | null) {
  if (id === null) return $alarmDetail.set(null);
  $alarmDetail.set({ status: "loading" });
  try {
    $alarmDetail.set({ status: "ready", value: await call(getAlarm, undefined, { id }) });
  } catch (e) {
    $alarmDetail.set({ status: "failed", message: errorsOf(e)[0]?.message ?? ALARMS_LOAD_FAILED });
  }
}

export const $ackForm = formStore();
/** Acknowledges with the note; the lists show the new state. */
export async function acknowledge(id: number, note: string): Promise<boolean> {
  const ok = await formTask($ackForm, () => call(acknowledgeAlarm, { note }, { id }));
  if (ok) await Promise.all([loadAlarms(), loadActiveAlarms()]);
  return ok;
}

export const $ruleForm = formStore();
export type RuleDraft = RequestOf<typeof createRule>;

/** Saves a new rule or changes one; the list reloads with it. */
export async function saveRule(draft: RuleDraft, id: number | null): Promise<boolean> {
  const ok = await formTask($ruleForm, () =>
    id === null ? call(createRule, draft) : call(updateRule, draft, { id }),
  );
  if (ok) await loadRules();
  return ok;
}

export const $ruleTask = map<FormState>({ busy: false, errors: [] });
export async function pauseRule(rule: Rule, paused: boolean) {
  if (await formTask($ruleTask, () => call(updateRule, { paused }, { id: rule.id }))) await loadRules();
}
export async function removeRule(rule: Rule): Promise<boolean> {
  const ok = await formTask($ruleTask, () => call(deleteRule, undefined, { id: rule.id }));
  if (ok) await Promise.all([loadRules(), loadAlarms()]);
  return ok;
}

/** What the rule editor picks from: devices, tags and a device's channels. */
export const $pickDevices = atom<DeviceListItem[]>([]);
export const $pickTags = atom<Tag[]>([]);
export const $pickChannels = atom<{ deviceId: number; list: ChannelListEntry[] } | null>(null);
export async function loadPickers() {
  try {
    const [devices, tags] = await Promise.all([call(listDevices), call(listTags)]);
    $pickDevices.set(devices.deviceList);
    $pickTags.set(tags);
  } catch {
    // The editor then offers no choices, and saving says what is missing.
  }
}
export async function loadChannels(deviceId: number) {
  if ($pickChannels.get()?.deviceId === deviceId) return;
  try {
    const { channelList } = await call(getChannelList, undefined, { deviceId });
    $pickChannels.set({ deviceId, list: channelList });
  } catch {
    $pickChannels.set({ deviceId, list: [] });
  }
}

/** A rule as the editor starts it: a new one, or the one being changed. */
export function draftOf(rule: Rule | null, scale: "C" | "F", userId: number): RuleInput {
  if (!rule)
    return {
      name: "",
      severity: "warning",
      channelKey: null,
      deviceId: null,
      tagId: null,
      channelKind: null,
      condition: { type: "above", low: null, high: null, scale, deadBand: 0, graceSeconds: 300 },
      delaySeconds: 0,
      delayReadings: 1,
      repeatMinutes: 0,
      notify: { userIds: userId ? [userId] : [], emails: [], webhookUrls: [] },
      escalation: [],
      quietHours: null,
      paused: false,
      tagIds: [],
    };
  const c = rule.condition;
  const condition: RuleInput["condition"] = { ...c, type: c.type as RuleInput["condition"]["type"] };
  return {
    name: rule.name,
    severity: rule.severity,
    channelKey: rule.channelKey,
    deviceId: rule.deviceId,
    tagId: rule.tagId,
    channelKind: rule.channelKey ? null : (rule.channelKind as RuleInput["channelKind"]),
    condition,
    delaySeconds: rule.delaySeconds,
    delayReadings: rule.delayReadings,
    repeatMinutes: rule.repeatMinutes,
    notify: rule.notify,
    escalation: rule.escalation,
    quietHours: rule.quietHours,
    paused: rule.paused,
    tagIds: rule.tagIds,
  };
}
