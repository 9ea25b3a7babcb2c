import { cleanStores } from "nanostores";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  DEVICE_NAME_RULE,
  getDeviceDetails,
  LABEL_TOO_LONG,
  updateDevice,
  updateSensor,
  type Channel,
  type DeviceDetails,
} from "../../src/api/devices.ts";
import { DEVICE_LOAD_FAILED, NO_DEVICE_ID } from "../../src/domain/deviceView.ts";
import { Role } from "../../src/domain/roles.ts";
import type { LiveState } from "../../src/api/live.ts";
import type { SocketLike } from "../../src/stores/live.ts";
import { $device, $devicePrefs, $deviceRights, loadDevice } from "../../src/stores/device.ts";
import { $deviceLive, followDevice } from "../../src/stores/deviceLive.ts";
import { $rename, renameDevice } from "../../src/stores/deviceName.ts";
import {
  $hideSave,
  $sensorSave,
  ADJUST_NOT_NUMBER,
  LABEL_SAVE_FAILED,
  SAVE_FAILED,
  saveSensorSettings,
  SENSOR_SAVE_FAILED,
  sensorDraft,
  setSensorHidden,
} from "../../src/stores/sensorSettings.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { $session } from "../../src/stores/session.ts";
import { fakeApi, fakeNavigation, later } from "./fakeApi.ts";
import { session } from "./sessions.ts";

const GROUP = "00:1A_W1_1200_0";
const channel = (type: number, kind: string, name: string, adjust = 0): Channel => ({
  channelKey: `${GROUP}_${type}`,
  kind,
  name,
  channelType: type,
  value: 4.2,
  adjust,
  conversion: { type: null, units: kind === "humidity" ? "%" : kind === "co2" ? "ppm" : "C" },
});
const DEVICE: DeviceDetails = {
  general: {
    id: 42,
    name: "Lab Base Station",
    location: "Lab 204",
    type: "RA12",
    deviceType: "RA12",
    tagList: [{ id: 1, name: "Lab" }],
    publicPageHash: null,
    uptime: 100,
    pushStatus: 1,
    pushInterval: 600,
    isLinkConnected: false,
    linkId: null,
    linkName: null,
    ethIp: null,
    wlanIp: null,
    wifiName: null,
    isHttps: false,
    httpPort: null,
    macAddress: "00:1A",
    serialnumber: "SN-1",
    firmware: "4.2.1",
    latestFirmware: "4.2.1",
    model: "RA12",
    imageUrl: null,
    warrantyEndDate: null,
    lastMessageTimestamp: 1_800_000_000,
    deviceAssignmentStartDate: null,
    isSuspended: false,
    capacityJson: null,
    geocode: null,
  },
  sensors: [
    {
      macAddress: "W1",
      channelKey: GROUP,
      kind: "wireless",
      sensorType: "Temp/Humidity",
      label: "Cold Room",
      isHub: false,
      battery: 90,
      pluggedIn: false,
      batteryAlertTriggered: false,
      signal: -60,
      lastReceived: 1_800_000_000,
      channelGroups: [
        {
          channelKey: GROUP,
          groupType: 1200,
          groupIndex: 0,
          label: "Cold Room",
          lastReceived: 1_800_000_000,
          isHidden: false,
          channels: [
            channel(1, "temperature", "Temperature", 1.5),
            channel(2, "humidity", "Humidity", -2),
            channel(8, "co2", "CO2"),
          ],
        },
      ],
    },
  ],
};
const renamed = (name: string): DeviceDetails => ({ ...DEVICE, general: { ...DEVICE.general, name } });
const SERVER_ERROR = { status: 500, errors: [{ field: null, message: "Unexpected error." }] };

function signedInAs(roleId: number, scale: "C" | "F" = "C") {
  const info = session().sessionInformation;
  $session.set({
    status: "signedIn",
    termsAccepted: true,
    info: {
      ...info,
      temperatureScale: scale,
      timezone: "America/Chicago",
      activeSubscription: { ...info.activeSubscription, role: { id: roleId, name: "", displayName: "" } },
    },
  });
}

let api: ReturnType<typeof fakeApi>;
beforeEach(() => {
  api = fakeApi();
  fakeNavigation("/s/devices/42");
  api.on(getDeviceDetails, { device: DEVICE });
  $device.set({ status: "idle" });
  $rename.set({ busy: false, errors: [] });
  $sensorSave.set({ busy: false, errors: [] });
  $hideSave.set({ busy: false, errors: [] });
  signedInAs(Role.ADMINISTRATOR);
});
afterEach(() => {
  cleanStores($device, $devicePrefs, $deviceRights);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setNavigation(null);
});

/** The device page shows DEVICE. */
async function shown() {
  await loadDevice("42");
  expect($device.get().status).toBe("success");
}

describe("loading the device", () => {
  test("is pending while the details are asked for, then shows them", async () => {
    const answer = later<{ device: DeviceDetails }>();
    api.on(getDeviceDetails, () => answer.promise);
    const loading = loadDevice("42");
    expect($device.get()).toEqual({ status: "pending", id: 42 });
    answer.resolve({ device: DEVICE });
    await loading;
    expect($device.get()).toEqual({ status: "success", id: 42, device: DEVICE });
    expect(api.calls(getDeviceDetails)[0]?.url).toBe("https://api.test/api/v1/device-data/device-details/42");
  });

  test("says 'No device ID provided.' without an id and asks nothing", async () => {
    await loadDevice(undefined);
    expect($device.get()).toEqual({ status: "error", message: NO_DEVICE_ID });
    await loadDevice("");
    expect(api.sent).toEqual([]);
  });

  test("shows 'Unexpected error loading device' for a failure or an id that is not one", async () => {
    api.on(getDeviceDetails, { status: 404, errors: [{ field: null, message: "Not found." }] });
    await loadDevice("42");
    expect($device.get()).toEqual({ status: "error", message: DEVICE_LOAD_FAILED });
    await loadDevice("4x2");
    expect($device.get()).toEqual({ status: "error", message: DEVICE_LOAD_FAILED });
  });

  test("keeps the device asked for last when answers come out of order", async () => {
    const first = later<{ device: DeviceDetails }>();
    api.on(getDeviceDetails, () => first.promise);
    const slow = loadDevice("41");
    api.on(getDeviceDetails, { device: DEVICE });
    await loadDevice("42");
    first.resolve({ device: renamed("Old page") });
    await slow;
    expect($device.get()).toMatchObject({ status: "success", id: 42, device: DEVICE });
  });
});

describe("the editable name", () => {
  test("saves the trimmed name once it is changed and shows it", async () => {
    await shown();
    api.on(updateDevice, (f) => ({ id: 42, name: String(f["name"]) }));
    expect(await renameDevice("  Cold Lab  ")).toEqual({ saved: true, name: "Cold Lab" });
    expect(api.calls(updateDevice)).toEqual([
      {
        method: "PATCH",
        url: "https://api.test/api/v1/device-data/update-device/42",
        as: "json",
        fields: { name: "Cold Lab" },
      },
    ]);
    expect($device.get()).toMatchObject({ device: { general: { name: "Cold Lab" } } });
  });

  test("sends nothing for an empty or unchanged name and shows the saved one", async () => {
    await shown();
    expect(await renameDevice("   ")).toEqual({ saved: false, name: "Lab Base Station" });
    expect(await renameDevice(" Lab Base Station ")).toEqual({ saved: false, name: "Lab Base Station" });
    expect(api.calls(updateDevice)).toEqual([]);
  });

  test("keeps the draft and shows the server's message when the save fails", async () => {
    await shown();
    api.on(updateDevice, { status: 400, errors: [{ field: "name", message: DEVICE_NAME_RULE }] });
    expect(await renameDevice("x".repeat(101))).toEqual({ saved: false, name: "x".repeat(101) });
    expect($rename.get().errors).toEqual([{ field: "name", message: DEVICE_NAME_RULE }]);
    expect($device.get()).toMatchObject({ device: { general: { name: "Lab Base Station" } } });
  });
});

describe("who may do what", () => {
  test.each([
    [Role.ADMINISTRATOR, true, true],
    [Role.MANAGER, true, true],
    [Role.PROVISIONER, false, true],
    [Role.VIEWER, false, false],
    [Role.BILLING, false, false],
  ])("role %i edits the device %s and sensors %s, and downloads", (role, edit, editSensors) => {
    signedInAs(role);
    expect($deviceRights.get()).toMatchObject({ edit, editSensors, download: true });
  });

  test("uses the account's scale and zone", () => {
    signedInAs(Role.VIEWER, "F");
    expect($devicePrefs.get()).toEqual({ scale: "F", zone: "America/Chicago" });
  });
});

describe("Sensor Settings", () => {
  const group = () => DEVICE.sensors[0]!.channelGroups[0]!;

  test("shows adjustments of adjustable channels in the preferred scale", () => {
    expect(sensorDraft(group(), "C")).toEqual({
      label: "Cold Room",
      isHidden: false,
      adjust: { [`${GROUP}_1`]: "1.5", [`${GROUP}_2`]: "-2" },
    });
    // A difference of 1.5 °C is 2.7 °F (no 32 offset), rounded to one decimal.
    expect(sensorDraft(group(), "F").adjust[`${GROUP}_1`]).toBe("2.7");
  });

  test("stores adjustments once in Celsius, then asks for the device again", async () => {
    signedInAs(Role.ADMINISTRATOR, "F");
    await shown();
    api.on(updateSensor, { channelGroup: group() });
    const draft = {
      label: " Freezer ",
      isHidden: true,
      adjust: { [`${GROUP}_1`]: "-1", [`${GROUP}_2`]: "3.5" },
    };
    expect(await saveSensorSettings(GROUP, draft)).toBe(true);
    expect(api.calls(updateSensor)[0]).toEqual({
      method: "PATCH",
      url: "https://api.test/api/v1/device-data/update-sensor/",
      as: "json",
      fields: {
        channelKey: GROUP,
        label: "Freezer",
        isHidden: true,
        channels: [
          { channelKey: `${GROUP}_1`, adjust: -0.56 },
          { channelKey: `${GROUP}_2`, adjust: 3.5 },
        ],
      },
    });
    expect(api.calls(getDeviceDetails)).toHaveLength(2);
    expect($sensorSave.get()).toEqual({ busy: false, errors: [] });
  });

  test("puts the server's label message on the label with 'Failed to update sensor label'", async () => {
    await shown();
    api.on(updateSensor, { status: 400, errors: [{ field: "label", message: LABEL_TOO_LONG }] });
    expect(await saveSensorSettings(GROUP, sensorDraft(group(), "C"))).toBe(false);
    expect($sensorSave.get().errors).toEqual([
      { field: "label", message: LABEL_TOO_LONG },
      { field: null, message: LABEL_SAVE_FAILED },
    ]);
  });

  test("puts an adjustment's message beside its channel with 'Failed to save sensor settings'", async () => {
    await shown();
    api.on(updateSensor, { status: 400, errors: [{ field: "channels.1.adjust", message: "Too far." }] });
    expect(await saveSensorSettings(GROUP, sensorDraft(group(), "C"))).toBe(false);
    expect($sensorSave.get().errors).toEqual([
      { field: `adjust:${GROUP}_2`, message: "Too far." },
      { field: null, message: SENSOR_SAVE_FAILED },
    ]);
  });

  test("says 'Failed to save settings' for a failure without such a message", async () => {
    await shown();
    api.on(updateSensor, SERVER_ERROR);
    expect(await saveSensorSettings(GROUP, sensorDraft(group(), "C"))).toBe(false);
    expect($sensorSave.get().errors).toEqual([{ field: null, message: SAVE_FAILED }]);
  });

  test("checks the label's length (one message, on the field) and the adjustments' numbers before sending", async () => {
    await shown();
    const draft = sensorDraft(group(), "C");
    expect(await saveSensorSettings(GROUP, { ...draft, label: "x".repeat(51) })).toBe(false);
    expect($sensorSave.get().errors).toEqual([{ field: "label", message: LABEL_TOO_LONG }]);
    expect(await saveSensorSettings(GROUP, { ...draft, adjust: { [`${GROUP}_1`]: "warm" } })).toBe(false);
    expect($sensorSave.get().errors).toEqual([
      { field: `adjust:${GROUP}_1`, message: ADJUST_NOT_NUMBER },
      { field: null, message: SENSOR_SAVE_FAILED },
    ]);
    expect(api.calls(updateSensor)).toEqual([]);
  });

  test("logs missing channel data and returns false", async () => {
    await shown();
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await saveSensorSettings("00:1A_NOPE_1200_0", sensorDraft(group(), "C"))).toBe(false);
    expect(log).toHaveBeenCalledWith(expect.stringContaining("no channel data"));
    expect(api.calls(updateSensor)).toEqual([]);
  });

  test("sends one save at a time", async () => {
    await shown();
    const answer = later<{ channelGroup: ReturnType<typeof group> }>();
    api.on(updateSensor, () => answer.promise);
    const first = saveSensorSettings(GROUP, sensorDraft(group(), "C"));
    expect($sensorSave.get().busy).toBe(true);
    expect(await saveSensorSettings(GROUP, sensorDraft(group(), "C"))).toBe(false);
    answer.resolve({ channelGroup: group() });
    expect(await first).toBe(true);
    expect(api.calls(updateSensor)).toHaveLength(1);
  });

  test("shows a hidden sensor with the flag alone and empty channels", async () => {
    await shown();
    api.on(updateSensor, { channelGroup: group() });
    expect(await setSensorHidden(GROUP, false)).toBe(true);
    expect(api.calls(updateSensor)[0]?.fields).toEqual({ channelKey: GROUP, channels: [], isHidden: false });
    api.on(updateSensor, SERVER_ERROR);
    expect(await setSensorHidden(GROUP, false)).toBe(false);
    expect($hideSave.get().errors).toEqual([{ field: null, message: SENSOR_SAVE_FAILED }]);
  });
});

describe("live readings", () => {
  /** A websocket the test speaks for: subscribe goes out, states come in. */
  function fakeSocket() {
    const listeners: Record<string, (event: never) => void> = {};
    const sent: unknown[] = [];
    const socket: SocketLike = {
      send: (text) => void sent.push(JSON.parse(text)),
      close: () => {},
      addEventListener: (type: string, listener: (event: never) => void) => void (listeners[type] = listener),
    };
    const emit = (type: string, event: unknown) =>
      (listeners[type] as ((e: unknown) => void) | undefined)?.(event);
    return { socket, sent, emit };
  }
  const live = (over: Partial<LiveState>): LiveState => ({
    type: "state",
    cause: "push",
    deviceId: 42,
    time: 1_800_000_600,
    lastMessageTimestamp: 1_800_000_600,
    pushStatus: 1,
    pushInterval: 600,
    uptime: 700,
    status: "pushing",
    readings: { [`${GROUP}_1`]: 5.25 },
    groups: { [GROUP]: 1_800_000_600 },
    sensors: [{ macAddress: "W1", battery: 88, signal: -61, pluggedIn: false, lastReceived: 1_800_000_600 }],
    ...over,
  });

  test("lays each pushed state over the shown device and fetches it again after a reconnect", async () => {
    await shown();
    const fake = fakeSocket();
    let connected = 0;
    const stop = followDevice(42, {
      connect: () => {
        connected++;
        return fake.socket;
      },
      random: () => 0,
    });
    await vi.waitFor(() => expect(connected).toBe(1));
    fake.emit("open", {});
    expect(fake.sent).toEqual([{ type: "subscribe", deviceId: 42 }]);
    fake.emit("message", { data: JSON.stringify(live({})) });
    expect($deviceLive.get()).toEqual({ state: "live" });
    const device = ($device.get() as { device: DeviceDetails }).device;
    expect(device.general).toMatchObject({ lastMessageTimestamp: 1_800_000_600, uptime: 700 });
    expect(device.sensors[0]).toMatchObject({ battery: 88, signal: -61 });
    expect(device.sensors[0]!.channelGroups[0]!.channels.map((c) => c.value)).toEqual([5.25, 4.2, 4.2]);
    // Another device's state (a page left behind) changes nothing.
    fake.emit("message", { data: JSON.stringify(live({ deviceId: 7, uptime: 1 })) });
    expect(($device.get() as { device: DeviceDetails }).device.general.uptime).toBe(700);
    // After a drop and a reconnect, the first state brings a fresh fetch of the details.
    const fetches = api.calls(getDeviceDetails).length;
    fake.emit("close", { code: 1006 });
    expect($deviceLive.get()).toMatchObject({ state: "reconnecting" });
    await vi.waitFor(() => expect(connected).toBe(2), { timeout: 3000 });
    fake.emit("open", {});
    fake.emit("message", { data: JSON.stringify(live({ cause: "subscribe" })) });
    await vi.waitFor(() => expect(api.calls(getDeviceDetails)).toHaveLength(fetches + 1));
    stop();
    expect($deviceLive.get()).toEqual({ state: "stopped" });
  });
});
