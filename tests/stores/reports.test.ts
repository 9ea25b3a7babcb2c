import { ACTIVATION_ENERGY_RULE } from "../../src/domain/compliance.ts";
import { cleanStores } from "nanostores";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  createReport,
  createReportLink,
  deleteReportLink,
  getReport,
  listReportChannels,
  listReports,
  updateReport,
  updateReportLink,
  type ChannelOption,
  type ReportDetail,
  type ReportSummary,
} from "../../src/api/reportBuilder.ts";
import { Role } from "../../src/domain/roles.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import {
  $draft,
  $reportForm,
  addThreshold,
  changeThreshold,
  editDraft,
  groupOptions,
  saveReport,
  startEditReport,
  startNewReport,
  toggleChannel,
} from "../../src/stores/reports.ts";
import { $reportPrefs, $reports, LINK_FAILED, loadReports } from "../../src/stores/reportList.ts";
import {
  $linkTask,
  expiryOf,
  pauseLink,
  publicReportUrl,
  shareReport,
  unshareReport,
} from "../../src/stores/reportLinks.ts";
import { $session } from "../../src/stores/session.ts";
import { fakeApi, fakeNavigation } from "./fakeApi.ts";
import { session } from "./sessions.ts";

const option = (channelId: number, sensorName: string, channelName: string, kind: string): ChannelOption => ({
  channelId,
  channelKey: `00:1A_${channelId}`,
  deviceId: channelId < 20 ? 1 : 2,
  deviceName: channelId < 20 ? "Lab Base Station" : "Warehouse",
  sensorName,
  channelName,
  kind,
  units: kind === "temperature" ? "°C" : "%",
});
const OPTIONS = [
  option(11, "Cold Room", "Temperature", "temperature"),
  option(12, "Cold Room", "Humidity", "humidity"),
  option(13, "Incubator", "Temperature", "temperature"),
  option(21, "Dock", "Temperature", "temperature"),
];
const summary = (over: Partial<ReportSummary> = {}): ReportSummary => ({
  id: 5,
  name: "Freezer audit",
  channelCount: 2,
  timeInterval: 86_400,
  startDate: null,
  endDate: null,
  link: null,
  views30Days: 0,
  ...over,
});
const LIVE = { publicHash: "h".repeat(43), expiresAt: null, pausedAt: null, state: "live" as const };

/** Signs Ada in with a role, a scale and a zone. */
function signedInAs(roleId: number, temperatureScale: "C" | "F" = "C", timezone = "UTC") {
  const info = session().sessionInformation;
  $session.set({
    status: "signedIn",
    termsAccepted: true,
    info: {
      ...info,
      temperatureScale,
      timezone,
      activeSubscription: { ...info.activeSubscription, role: { id: roleId, name: "", displayName: "" } },
    },
  });
}

let api: ReturnType<typeof fakeApi>;
beforeEach(() => {
  api = fakeApi();
  fakeNavigation("/s/reports");
  api.on(listReports, [summary()]);
  api.on(listReportChannels, OPTIONS);
  $reports.set({ status: "ready", value: [summary()] });
  $linkTask.set({ busy: false, errors: [] });
  startNewReport();
  signedInAs(Role.ADMINISTRATOR);
});
afterEach(() => {
  cleanStores($reports, $reportPrefs);
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("the report list", () => {
  test("loads the subscription's reports, and says so when it cannot", async () => {
    await loadReports();
    expect($reports.get()).toEqual({ status: "ready", value: [summary()] });
    api.on(listReports, { status: 500, errors: [{ field: null, message: "Unexpected error." }] });
    await loadReports();
    expect($reports.get()).toEqual({ status: "failed", message: "Unexpected error." });
  });

  test("lets Administrators and Managers edit, and no other role", () => {
    const editable = (role: number) => {
      signedInAs(role);
      return $reportPrefs.get().editable;
    };
    expect(
      [Role.ADMINISTRATOR, Role.MANAGER, Role.VIEWER, Role.PROVISIONER, Role.BILLING].map(editable),
    ).toEqual([true, true, false, false, false]);
  });

  test("groups the channel options by device, then sensor", () => {
    expect(
      groupOptions(OPTIONS).map((d) => [
        d.deviceName,
        d.sensors.map((s) => [s.sensorName, s.channels.length]),
      ]),
    ).toEqual([
      [
        "Lab Base Station",
        [
          ["Cold Room", 2],
          ["Incubator", 1],
        ],
      ],
      ["Warehouse", [["Dock", 1]]],
    ]);
  });
});

describe("the report form", () => {
  test("gives each picked channel its own colour and sends a rolling window", async () => {
    toggleChannel(11);
    toggleChannel(13);
    $draft.setKey("name", "Freezer audit");
    $draft.setKey("rolling", 604_800);
    api.on(
      createReport,
      (fields) =>
        ({
          ...summary({ timeInterval: 604_800 }),
          ...(fields as object),
          id: 9,
          mktActivationEnergy: 83.144,
          channels: [],
          thresholds: [],
        }) as ReportDetail,
    );
    expect(await saveReport(OPTIONS)).toBe(9);
    const sent = api.calls(createReport)[0]!.fields;
    expect(sent).toMatchObject({
      name: "Freezer audit",
      timeInterval: 604_800,
      startDate: null,
      endDate: null,
      channels: [
        { channelId: 11, color: "#1e88e5", axis: 0 },
        { channelId: 13, color: "#43a047", axis: 0 },
      ],
    });
    expect(($reports.get() as { value: ReportSummary[] }).value.map((r) => r.id)).toEqual([5, 9]);
  });

  test("stores temperature ranges typed in Fahrenheit as Celsius, other kinds as typed", async () => {
    signedInAs(Role.MANAGER, "F");
    toggleChannel(11);
    toggleChannel(12);
    $draft.setKey("name", "Cold room");
    addThreshold();
    changeThreshold(0, { name: "Too warm", channelId: 11, min: "46.4", max: "" });
    addThreshold();
    changeThreshold(1, { name: "Too damp", channelId: 12, min: "80", max: "" });
    addThreshold();
    changeThreshold(2, { name: "Anything", channelId: null, min: "", max: "0" });
    api.on(createReport, { ...summary(), mktActivationEnergy: 83.144, channels: [], thresholds: [] });
    await saveReport(OPTIONS);
    const sent = api.calls(createReport)[0]!.fields as {
      thresholds: { minValue: number; maxValue: number }[];
    };
    expect(sent.thresholds.map((t) => [t.minValue, t.maxValue])).toEqual([
      [8, null],
      [80, null],
      // A range on every channel of a mixed report stays as typed.
      [null, 0],
    ]);
  });

  test("reads a fixed window's times in the person's zone", async () => {
    signedInAs(Role.ADMINISTRATOR, "C", "America/New_York");
    toggleChannel(11);
    $draft.set({
      ...$draft.get(),
      name: "Audit",
      rolling: 0,
      start: "2026-03-08T01:00",
      end: "2026-03-08T04:00",
    });
    api.on(createReport, { ...summary(), mktActivationEnergy: 83.144, channels: [], thresholds: [] });
    await saveReport(OPTIONS);
    // 01:00 EST is 06:00 UTC; 04:00 EDT (after the change) is 08:00 UTC.
    expect(api.calls(createReport)[0]!.fields).toMatchObject({
      startDate: Date.UTC(2026, 2, 8, 6) / 1000,
      endDate: Date.UTC(2026, 2, 8, 8) / 1000,
    });
  });

  test("stops at a value that is not a number or a missing time, without calling the server", async () => {
    toggleChannel(11);
    addThreshold();
    changeThreshold(0, { name: "x", min: "warm" });
    $draft.setKey("rolling", 0);
    expect(await saveReport(OPTIONS)).toBeNull();
    expect($reportForm.get().errors.map((e) => e.field)).toEqual([
      "thresholds.0.minValue",
      "startDate",
      "endDate",
    ]);
    expect(api.calls(createReport)).toEqual([]);
  });

  test("shows the server's field messages beside the fields", async () => {
    api.on(createReport, { status: 400, errors: [{ field: "name", message: "Enter a report name." }] });
    toggleChannel(11);
    expect(await saveReport(OPTIONS)).toBeNull();
    expect($reportForm.get()).toEqual({
      busy: false,
      errors: [{ field: "name", message: "Enter a report name." }],
    });
  });

  test("takes a field's message away as soon as that field is edited, and keeps the others", async () => {
    api.on(createReport, { status: 400, errors: [{ field: "name", message: "Enter a report name." }] });
    toggleChannel(11);
    await saveReport(OPTIONS);
    editDraft("name", "Freezers overnight");
    expect($reportForm.get().errors).toEqual([]);
    addThreshold();
    changeThreshold(0, { name: "x", min: "warm" });
    editDraft("rolling", 0);
    await saveReport(OPTIONS);
    editDraft("start", "2026-11-01T00:00");
    changeThreshold(0, { min: "3" });
    expect($reportForm.get().errors.map((e) => e.field)).toEqual(["endDate"]);
  });

  test("loads a report to edit with Celsius ranges shown in Fahrenheit, and saves it in place", async () => {
    signedInAs(Role.ADMINISTRATOR, "F");
    const detail: ReportDetail = {
      ...summary(),
      mktActivationEnergy: 60,
      channels: [{ channelId: 11, color: "#112233", axis: 0 }],
      thresholds: [{ id: 3, name: "Too warm", channelId: 11, minValue: 8, maxValue: null, color: "#ff0000" }],
    };
    api.on(getReport, detail);
    await startEditReport(5, OPTIONS);
    expect($draft.get().thresholds).toEqual([
      {
        id: 3,
        name: "Too warm",
        channelId: 11,
        min: "46.4",
        max: "",
        minValue: 8,
        maxValue: null,
        color: "#ff0000",
      },
    ]);
    api.on(updateReport, { ...detail, name: "Renamed" });
    $draft.setKey("name", "Renamed");
    expect(await saveReport(OPTIONS)).toBe(5);
    expect(api.calls(updateReport)[0]!.url).toBe("https://api.test/api/v1/reports/5");
    expect(($reports.get() as { value: ReportSummary[] }).value[0]!.name).toBe("Renamed");
  });

  test("loads and sends the report's activation energy, and checks it before sending", async () => {
    const detail: ReportDetail = {
      ...summary(),
      mktActivationEnergy: 60,
      channels: [{ channelId: 11, color: "#112233", axis: 0 }],
      thresholds: [],
    };
    api.on(getReport, detail);
    await startEditReport(5, OPTIONS);
    expect($draft.get().mkt).toBe("60");
    editDraft("mkt", "400");
    expect(await saveReport(OPTIONS)).toBeNull();
    expect($reportForm.get().errors).toEqual([
      { field: "mktActivationEnergy", message: ACTIVATION_ENERGY_RULE },
    ]);
    editDraft("mkt", "95.5");
    expect($reportForm.get().errors).toEqual([]);
    api.on(updateReport, { ...detail, mktActivationEnergy: 95.5 });
    expect(await saveReport(OPTIONS)).toBe(5);
    expect(api.calls(updateReport)[0]!.fields).toMatchObject({ mktActivationEnergy: 95.5 });
  });

  test("drops a range's channel to 'all channels' when that channel is unpicked", () => {
    toggleChannel(11);
    addThreshold();
    changeThreshold(0, { channelId: 11 });
    toggleChannel(11);
    expect($draft.get().thresholds[0]!.channelId).toBeNull();
  });
});

describe("the public link", () => {
  test("creates, pauses and deletes the link, updating the list each time", async () => {
    api.on(createReportLink, summary({ link: LIVE }));
    await shareReport(5);
    expect(api.calls(createReportLink)[0]!.fields).toEqual({ expiresAt: null });
    expect(($reports.get() as { value: ReportSummary[] }).value[0]!.link).toEqual(LIVE);
    api.on(updateReportLink, summary({ link: { ...LIVE, state: "paused", pausedAt: 1 } }));
    await pauseLink(5, true);
    expect(api.calls(updateReportLink)[0]!.fields).toEqual({ paused: true });
    expect(($reports.get() as { value: ReportSummary[] }).value[0]!.link?.state).toBe("paused");
    api.on(deleteReportLink, summary());
    await unshareReport(5);
    expect(($reports.get() as { value: ReportSummary[] }).value[0]!.link).toBeNull();
  });

  test("says the link could not be changed when the call fails", async () => {
    api.on(createReportLink, { status: 500, errors: [{ field: null, message: "Unexpected error." }] });
    expect(await shareReport(5)).toBe(false);
    expect($linkTask.get().errors).toEqual([{ field: null, message: LINK_FAILED }]);
  });

  test("builds the page address from this origin, and an expiry at the end of the chosen day", () => {
    expect(publicReportUrl("abc_DEF-123")).toBe("https://web.test/public/report/abc_DEF-123");
    expect(expiryOf("2026-12-01", "UTC")).toBe(Date.UTC(2026, 11, 1, 23, 59) / 1000);
    expect(expiryOf("", "UTC")).toBeNull();
  });
});
