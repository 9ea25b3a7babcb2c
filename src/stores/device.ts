/*
 * The signed-in device page's device (spec section 4 load states), what the person may do on
 * it and in which scale and zone it shows. The page's features each have their own store:
 * deviceLive.ts (live readings), deviceName.ts (the editable name), sensorSettings.ts (sensor
 * and adapter settings, hiding), deviceDialogs.ts (location, public link, download).
 */
import { atom, computed } from "nanostores";
import {
  getDeviceDetails,
  type ChannelGroup,
  type DeviceDetails,
  type DeviceGeneral,
} from "../api/devices.ts";
import { DEVICE_LOAD_FAILED, NO_DEVICE_ID } from "../domain/deviceView.ts";
import { roleMay } from "../domain/permissions.ts";
import { isRoleId } from "../domain/roles.ts";
import { resolveTemperatureScale, type TemperatureScale } from "../domain/temperature.ts";
import { isKnownTimezone } from "../domain/timezones.ts";
import { call } from "./http.ts";
import { $session } from "./session.ts";

/** Spec section 4, device load state: idle, pending, success, error. */
export type DeviceState =
  | { status: "idle" }
  | { status: "pending"; id: number }
  | { status: "success"; id: number; device: DeviceDetails }
  | { status: "error"; message: string };

/** The device the signed-in device page shows. */
export const $device = atom<DeviceState>({ status: "idle" });

/** The person's temperature scale and time zone (UTC when unknown). */
export const $devicePrefs = computed($session, (s): { scale: TemperatureScale; zone: string } => {
  if (s.status !== "signedIn") return { scale: "C", zone: "UTC" };
  const zone = s.info.timezone;
  return {
    scale: resolveTemperatureScale(s.info.temperatureScale),
    zone: isKnownTimezone(zone) ? zone : "UTC",
  };
});

/** What the signed-in person may do on the page (the server checks each call again). */
export const $deviceRights = computed($session, (s) => {
  const role = s.status === "signedIn" ? s.info.activeSubscription.role.id : 0;
  const known = isRoleId(role);
  return {
    /** Name, tags, location and public link: ADMIN and MANAGER only (spec section 6). */
    edit: known && roleMay(role, "device.edit"),
    editSensors: known && roleMay(role, "sensor.edit"),
    download: known && roleMay(role, "device.download"),
    features: s.status === "signedIn" ? s.info.activeSubscription.tier.features : {},
  };
});

let asked = 0;

/** Loads the device of the address (its id as text); 'No device ID provided.' without one. */
export async function loadDevice(idText: string | undefined) {
  const ask = ++asked;
  const id = Number(idText);
  if (!idText) return $device.set({ status: "error", message: NO_DEVICE_ID });
  if (!/^\d{1,10}$/.test(idText) || id < 1)
    return $device.set({ status: "error", message: DEVICE_LOAD_FAILED });
  $device.set({ status: "pending", id });
  try {
    const { device } = await call(getDeviceDetails, undefined, { deviceId: id });
    // A later load (another device's page) wins over this one.
    if (ask === asked) $device.set({ status: "success", id, device });
  } catch {
    if (ask === asked) $device.set({ status: "error", message: DEVICE_LOAD_FAILED });
  }
}

/** Asks for the shown device again (after a save), keeping it on screen meanwhile. */
export async function refreshDevice(): Promise<boolean> {
  const state = $device.get();
  if (state.status !== "success") return false;
  const ask = asked;
  try {
    const { device } = await call(getDeviceDetails, undefined, { deviceId: state.id });
    if (ask === asked) $device.set({ ...state, device });
    return true;
  } catch {
    return false;
  }
}

/** The shown device, or null. */
export function shownDevice(): DeviceDetails | null {
  const state = $device.get();
  return state.status === "success" ? state.device : null;
}

/** Replaces parts of the shown device (a saved name, applied tags, a live push). */
export function patchDevice(update: (device: DeviceDetails) => DeviceDetails) {
  const state = $device.get();
  if (state.status === "success") $device.set({ ...state, device: update(state.device) });
}

/** Changes the shown device's general fields. */
export const patchGeneral = (fields: Partial<DeviceGeneral>) =>
  patchDevice((d) => ({ ...d, general: { ...d.general, ...fields } }));

/** The channel group of the shown device with this key, or null. */
export function groupOfShown(key: string): ChannelGroup | null {
  return (
    shownDevice()
      ?.sensors.flatMap((s) => s.channelGroups)
      .find((g) => g.channelKey === key) ?? null
  );
}
