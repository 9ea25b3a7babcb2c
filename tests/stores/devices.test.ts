import { cleanStores } from "nanostores";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  changeDeviceLocation,
  createPublicLink,
  deletePublicLink,
  listDevices,
  type DeviceListItem,
} from "../../src/api/devices.ts";
import { getLink } from "../../src/api/links.ts";
import { LOCATION_REQUIRED } from "../../src/domain/location.ts";
import { PLAN_MESSAGES } from "../../src/domain/plan.ts";
import { Role } from "../../src/domain/roles.ts";
import {
  $copied,
  $download,
  $locationSave,
  $planBlocks,
  $publicHash,
  $publicLinkTask,
  copyText,
  COPY_FAILED,
  DOWNLOAD_FAILED,
  downloadQuery,
  fetchDeviceCsv,
  fileNameOf,
  LINK_CREATE_FAILED,
  LINK_DELETE_FAILED,
  LOCATION_FAILED,
  locationDraftOf,
  makePublicLink,
  publicLinkUrl,
  removePublicLink,
  saveLocation,
  showPublicLink,
} from "../../src/stores/deviceDialogs.ts";
import {
  $devices,
  $devicesByLocation,
  $deviceSearch,
  $deviceTagFilter,
  $deviceTags,
  $mappedDevices,
  $shownDevices,
  DEVICES_LOAD_FAILED,
  filterDevices,
  fitBox,
  groupByLocation,
  loadDevices,
  mapPoint,
  setTagFilter,
  WORLD_BOX,
} from "../../src/stores/devices.ts";
import { $link, LINK_LOAD_FAILED, LINK_NOT_FOUND, loadLink } from "../../src/stores/links.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { $session } from "../../src/stores/session.ts";
import { CONFIG, fakeApi, fakeNavigation, PAGE_ORIGIN } from "./fakeApi.ts";
import { session } from "./sessions.ts";

const NOW = 1_790_000_000;
const LAB = { id: 3, name: "Lab" };
const CRITICAL = { id: 1, name: "Critical" };
const device = (id: number, name: string, over: Partial<DeviceListItem> = {}): DeviceListItem => ({
  id,
  name,
  type: "RA12",
  deviceType: "RA12",
  tagList: [],
  location: null,
  geocode: null,
  lastMessageTimestamp: NOW - 60,
  pushInterval: 600,
  status: "pushing",
  ...over,
});
const STATION = device(1, "Lab Base Station", {
  tagList: [CRITICAL, LAB],
  location: "Building 2, Lab 204",
  geocode: { lat: 42.3601, lng: -71.0589 },
});
const RAMAX = device(2, "Warehouse RAMAX", {
  deviceType: "RAMAX",
  location: "Warehouse 1",
  geocode: { lat: 41.8781, lng: -87.6298 },
  status: "late",
});
const FREEZER = device(4, "Freezer Monitor", { tagList: [LAB], location: "  ", status: "offline" });
const LIST = [FREEZER, STATION, RAMAX];
const SERVER_ERROR = { status: 500, errors: [{ field: null, message: "Unexpected error." }] };

/** Signs Ada in with a role and the plan's features. */
function signedInAs(
  roleId: number,
  features: Record<string, boolean> = { publicUrl: true, csvExport: true },
) {
  const info = session().sessionInformation;
  $session.set({
    status: "signedIn",
    termsAccepted: true,
    info: {
      ...info,
      timezone: "America/New_York",
      activeSubscription: {
        ...info.activeSubscription,
        tier: { name: "Professional", limits: {}, features },
        role: { id: roleId, name: "", displayName: "" },
      },
    },
  });
}

let api: ReturnType<typeof fakeApi>;
beforeEach(() => {
  api = fakeApi();
  fakeNavigation("/s/devices");
  signedInAs(Role.ADMINISTRATOR);
  $devices.set({ status: "loading" });
  $deviceSearch.set("");
  $deviceTagFilter.set(null);
  for (const form of [$locationSave, $publicLinkTask, $download]) form.set({ busy: false, errors: [] });
});
afterEach(() => {
  cleanStores($devices, $shownDevices, $deviceTags, $mappedDevices, $devicesByLocation, $planBlocks, $link);
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("the device list", () => {
  test("loads the active subscription's devices", async () => {
    api.on(listDevices, { deviceList: LIST });
    await loadDevices();
    expect(api.calls(listDevices)).toEqual([
      { method: "GET", url: `${CONFIG.apiBase}/api/v1/devices`, as: "none", fields: {} },
    ]);
    expect($devices.get()).toEqual({ status: "ready", list: LIST });
  });

  test("says the list could not be loaded, and loads it on a second try", async () => {
    api.on(listDevices, SERVER_ERROR);
    await loadDevices();
    expect($devices.get()).toEqual({ status: "error", message: DEVICES_LOAD_FAILED });
    api.on(listDevices, { deviceList: LIST });
    await loadDevices();
    expect($devices.get()).toEqual({ status: "ready", list: LIST });
  });

  test("searches names in any case, ignoring spaces at the ends", () => {
    expect(filterDevices(LIST, "  lab ", null)).toEqual([STATION]);
    expect(filterDevices(LIST, "O", null)).toEqual(LIST);
    expect(filterDevices(LIST, "", null)).toEqual(LIST);
    expect(filterDevices(LIST, "boiler", null)).toEqual([]);
  });

  test("narrows to the devices that carry the chosen tag, together with the search", () => {
    expect(filterDevices(LIST, "", LAB.id)).toEqual([FREEZER, STATION]);
    expect(filterDevices(LIST, "freezer", LAB.id)).toEqual([FREEZER]);
    expect(filterDevices(LIST, "", CRITICAL.id)).toEqual([STATION]);
  });

  test("offers every tag a device carries once, by name, and shows what the filters leave", async () => {
    api.on(listDevices, { deviceList: LIST });
    const off = $shownDevices.listen(() => {});
    await loadDevices();
    expect($deviceTags.get()).toEqual([CRITICAL, LAB]);
    setTagFilter(String(LAB.id));
    expect($shownDevices.get()).toEqual([FREEZER, STATION]);
    $deviceSearch.set("STATION");
    expect($shownDevices.get()).toEqual([STATION]);
    setTagFilter("");
    $deviceSearch.set("");
    expect($shownDevices.get()).toEqual(LIST);
    off();
  });
});

describe("the device map", () => {
  test("groups devices by their location text, by name, with those without one last", () => {
    const groups = groupByLocation([
      RAMAX,
      FREEZER,
      STATION,
      device(9, "Attic Sensor", { location: "Warehouse 1" }),
    ]);
    expect(groups.map((g) => [g.location, g.devices.map((d) => d.name)])).toEqual([
      ["Building 2, Lab 204", ["Lab Base Station"]],
      ["Warehouse 1", ["Attic Sensor", "Warehouse RAMAX"]],
      ["No location", ["Freezer Monitor"]],
    ]);
  });

  test("places a coordinate on the map, held inside the drawn latitudes", () => {
    expect(mapPoint({ lat: 0, lng: 0 })).toEqual({ x: 1800, y: 900 });
    expect(mapPoint({ lat: 42.5, lng: -71 })).toEqual({ x: 1090, y: 475 });
    expect(mapPoint({ lat: -89, lng: 180 }).y).toBe(1480);
    expect(mapPoint({ lat: 89, lng: -180 })).toEqual({ x: 0, y: 80 });
  });

  test("maps only devices with coordinates", async () => {
    api.on(listDevices, { deviceList: LIST });
    const off = $mappedDevices.listen(() => {});
    await loadDevices();
    expect($mappedDevices.get().map((m) => m.device.name)).toEqual(["Lab Base Station", "Warehouse RAMAX"]);
    off();
  });

  test("zooms to the devices in the map's proportions, at least 40 degrees wide, or shows the whole world", () => {
    expect(fitBox([])).toBe(WORLD_BOX);
    const points = [mapPoint(STATION.geocode!), mapPoint(RAMAX.geocode!)];
    const box = fitBox(points);
    // Chicago and Boston lie 16.6 degrees apart: 20 more make 36.6, held to 40 and to the height with its margin.
    expect(box.width).toBeGreaterThanOrEqual(400);
    expect(box.width).toBeLessThan(600);
    expect(box.width / box.height).toBeCloseTo(2.5);
    for (const p of points) {
      expect(p.x).toBeGreaterThan(box.x);
      expect(p.x).toBeLessThan(box.x + box.width);
      expect(p.y).toBeGreaterThan(box.y);
      expect(p.y).toBeLessThan(box.y + box.height);
    }
    // A device on the edge of the world keeps the box inside it.
    expect(fitBox([mapPoint({ lat: 10, lng: -179 })]).x).toBe(0);
    expect(fitBox([mapPoint({ lat: 60, lng: -170 }), mapPoint({ lat: -30, lng: 170 })])).toBe(WORLD_BOX);
  });
});

describe("a link's page", () => {
  test("shows the link's name and its devices", async () => {
    api.on(getLink, { link: { id: 5, name: "Lab Network Link" }, deviceList: [STATION] });
    await loadLink("5");
    expect(api.calls(getLink)[0]!.url).toBe(`${CONFIG.apiBase}/api/v1/links/5`);
    expect($link.get()).toEqual({
      status: "ready",
      link: { id: 5, name: "Lab Network Link" },
      devices: [STATION],
    });
  });

  test("says a missing or foreign link was not found, and any other failure that it could not load", async () => {
    api.on(getLink, { status: 404, errors: [{ field: null, message: "Not found." }] });
    await loadLink("77");
    expect($link.get()).toEqual({ status: "error", message: LINK_NOT_FOUND });
    api.on(getLink, SERVER_ERROR);
    await loadLink("5");
    expect($link.get()).toEqual({ status: "error", message: LINK_LOAD_FAILED });
  });

  test("asks nothing for an address that names no link", async () => {
    for (const id of [undefined, "abc", "0", "99999999999", "1e3"]) {
      await loadLink(id);
      expect($link.get()).toEqual({ status: "error", message: LINK_NOT_FOUND });
    }
    expect(api.calls(getLink)).toEqual([]);
  });
});

describe("Update Location", () => {
  test("starts from the device's location text and coordinates", () => {
    expect(locationDraftOf({ location: "Lab", geocode: { lat: 1.5, lng: -2 } })).toEqual({
      location: "Lab",
      lat: "1.5",
      lng: "-2",
    });
    expect(locationDraftOf({ location: null, geocode: null })).toEqual({ location: "", lat: "", lng: "" });
  });

  test("asks for location text or both coordinates and sends nothing without them", async () => {
    for (const draft of [
      { location: "   ", lat: "", lng: "" },
      { location: "", lat: "42", lng: " " },
    ]) {
      expect(await saveLocation(1, draft)).toBe(false);
      expect($locationSave.get().errors).toEqual([{ field: null, message: LOCATION_REQUIRED }]);
    }
    expect(api.calls(changeDeviceLocation)).toEqual([]);
  });

  test("sends the id and the trimmed text and coordinates as a form to the web host", async () => {
    api.on(changeDeviceLocation, { id: 1, location: "Lab 5", geocode: { lat: 42.1, lng: -71.2 } });
    expect(await saveLocation(1, { location: "  Lab 5 ", lat: " 42.1", lng: "-71.2 " })).toBe(true);
    expect(await saveLocation(1, { location: "", lat: "1", lng: "2" })).toBe(true);
    expect(api.calls(changeDeviceLocation)).toEqual([
      {
        method: "POST",
        url: `${PAGE_ORIGIN}/devices/data/change-device-location`,
        as: "form",
        fields: { id: "1", location: "Lab 5", lat: "42.1", lng: "-71.2" },
      },
      {
        method: "POST",
        url: `${PAGE_ORIGIN}/devices/data/change-device-location`,
        as: "form",
        fields: { id: "1", lat: "1", lng: "2" },
      },
    ]);
  });

  test("shows the server's message beside a bad field, and the spec's message for any other failure", async () => {
    const latitude = "Latitude must be a number from -90 to 90.";
    api.on(changeDeviceLocation, { status: 400, errors: [{ field: "lat", message: latitude }] });
    expect(await saveLocation(1, { location: "", lat: "95", lng: "2" })).toBe(false);
    expect($locationSave.get().errors).toEqual([{ field: "lat", message: latitude }]);
    api.on(changeDeviceLocation, SERVER_ERROR);
    expect(await saveLocation(1, { location: "Lab", lat: "", lng: "" })).toBe(false);
    expect($locationSave.get().errors).toEqual([{ field: null, message: LOCATION_FAILED }]);
    api.on(changeDeviceLocation, () => {
      throw new TypeError("Failed to fetch");
    });
    expect(await saveLocation(1, { location: "Lab", lat: "", lng: "" })).toBe(false);
    expect($locationSave.get().errors).toEqual([{ field: null, message: LOCATION_FAILED }]);
  });
});

describe("Public Link", () => {
  const HASH = "a".repeat(43);
  const NEW_HASH = "b".repeat(43);

  test("creates a link, creates it again with a new address, and deletes it", async () => {
    showPublicLink(null);
    api.on(createPublicLink, { publicLink: `/p/device/${HASH}`, publicPageHash: HASH });
    expect(await makePublicLink(1)).toBe(true);
    expect($publicHash.get()).toBe(HASH);
    api.on(createPublicLink, { publicLink: `/p/device/${NEW_HASH}`, publicPageHash: NEW_HASH });
    expect(await makePublicLink(1)).toBe(true);
    expect($publicHash.get()).toBe(NEW_HASH);
    api.on(deletePublicLink, { publicLink: null, publicPageHash: null });
    expect(await removePublicLink(1)).toBe(true);
    expect($publicHash.get()).toBeNull();
    expect(api.sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      `POST ${CONFIG.apiBase}/api/v1/device-data/public-link/1`,
      `POST ${CONFIG.apiBase}/api/v1/device-data/public-link/1`,
      `DELETE ${CONFIG.apiBase}/api/v1/device-data/public-link/1`,
    ]);
  });

  test("says creating or deleting failed, keeping the link as it was", async () => {
    showPublicLink(HASH);
    api.on(createPublicLink, SERVER_ERROR);
    expect(await makePublicLink(1)).toBe(false);
    expect($publicLinkTask.get().errors).toEqual([{ field: null, message: LINK_CREATE_FAILED }]);
    api.on(deletePublicLink, SERVER_ERROR);
    expect(await removePublicLink(1)).toBe(false);
    expect($publicLinkTask.get().errors).toEqual([{ field: null, message: LINK_DELETE_FAILED }]);
    expect($publicHash.get()).toBe(HASH);
    showPublicLink(HASH);
    expect($publicLinkTask.get().errors).toEqual([]);
  });

  test("passes on the server's reason when it refuses (the plan)", async () => {
    api.on(createPublicLink, { status: 403, errors: [{ field: null, message: PLAN_MESSAGES.publicUrl }] });
    expect(await makePublicLink(1)).toBe(false);
    expect($publicLinkTask.get().errors).toEqual([{ field: null, message: PLAN_MESSAGES.publicUrl }]);
  });

  test("builds the address on this site: /p/device for RA types, /public/device for others", () => {
    expect(publicLinkUrl("RA12", HASH)).toBe(`${PAGE_ORIGIN}/p/device/${HASH}`);
    expect(publicLinkUrl("WS2", HASH)).toBe(`${PAGE_ORIGIN}/public/device/${HASH}`);
  });

  test("shows 'Copied!' for two seconds after copying, and says when the browser refuses", async () => {
    vi.useFakeTimers();
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { clipboard: { writeText } });
    expect(await copyText("https://x.test/p/device/h")).toBe(true);
    expect(writeText).toHaveBeenCalledWith("https://x.test/p/device/h");
    expect($copied.get()).toBe(true);
    vi.advanceTimersByTime(2000);
    expect($copied.get()).toBe(false);
    vi.useRealTimers();
    writeText.mockRejectedValueOnce(new Error("denied"));
    expect(await copyText("x")).toBe(false);
    expect($publicLinkTask.get().errors).toEqual([{ field: null, message: COPY_FAILED }]);
  });

  test("says why when the plan has no public URL or CSV export feature", () => {
    const off = $planBlocks.listen(() => {});
    expect($planBlocks.get()).toEqual({ publicUrl: null, csvExport: null });
    signedInAs(Role.VIEWER, { publicUrl: false });
    expect($planBlocks.get()).toEqual({
      publicUrl: PLAN_MESSAGES.publicUrl,
      csvExport: PLAN_MESSAGES.csvExport,
    });
    off();
  });
});

describe("Download Device Data", () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0) / 1000;

  test("asks for the last 24 hours by default, other presets, or a custom range read in UTC", () => {
    expect(downloadQuery({ preset: "24h", from: "", to: "" }, now)).toEqual({
      ok: true,
      startTime: "2026-11-21T12:00:00Z",
      endTime: "2026-11-22T12:00:00Z",
    });
    expect(downloadQuery({ preset: "7d", from: "", to: "" }, now)).toMatchObject({
      startTime: "2026-11-15T12:00:00Z",
    });
    expect(
      downloadQuery({ preset: "custom", from: "2026-11-01T08:30", to: "2026-11-02T00:00" }, now),
    ).toEqual({
      ok: true,
      startTime: "2026-11-01T08:30:00Z",
      endTime: "2026-11-02T00:00:00Z",
    });
  });

  test("refuses a custom range without both ends or in the wrong order", () => {
    expect(downloadQuery({ preset: "custom", from: "", to: "2026-11-02T00:00" }, now)).toEqual({
      ok: false,
      errors: [{ field: "from", message: "Enter a start and an end time." }],
    });
    expect(
      downloadQuery({ preset: "custom", from: "2026-11-02T00:00", to: "2026-11-02T00:00" }, now),
    ).toEqual({
      ok: false,
      errors: [{ field: "from", message: "The start time must be before the end time." }],
    });
  });

  test("takes the file name from Content-Disposition, else 'device-data.csv'", () => {
    expect(fileNameOf(`attachment; filename="Lab 2026-11-21 to 2026-11-22.csv"`)).toBe(
      "Lab 2026-11-21 to 2026-11-22.csv",
    );
    expect(fileNameOf(`attachment; filename="Caf 1.csv"; filename*=UTF-8''Caf%C3%A9%201.csv`)).toBe(
      "Café 1.csv",
    );
    expect(fileNameOf("attachment; filename=plain.csv")).toBe("plain.csv");
    expect(fileNameOf(`attachment; filename="../../etc/passwd"`)).toBe("....etcpasswd");
    expect(fileNameOf("attachment")).toBe("device-data.csv");
    expect(fileNameOf(null)).toBe("device-data.csv");
    expect(fileNameOf(`attachment; filename*=UTF-8''%E0%A4%A`)).toBe("device-data.csv");
  });

  /** A fetch that answers the download like the portal (the runtime config as fakeApi does). */
  function csvServer(answer: () => Response) {
    const urls: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: Request | string | URL, init?: RequestInit) => {
        const url = String(input instanceof Request ? input.url : input);
        if (url.endsWith("/runtime-config.json")) return Response.json(CONFIG);
        // ky sends a Request, whose credentials are its own; a bare fetch would pass them in init.
        urls.push(`${url} ${input instanceof Request ? input.credentials : init?.credentials}`);
        return answer();
      }),
    );
    return urls;
  }

  test("fetches the CSV from the web host with the session cookie and names the file", async () => {
    const urls = csvServer(
      () =>
        new Response("Time (UTC),Cold Room - Temperature (°C)\n", {
          headers: { "content-type": "text/csv", "content-disposition": `attachment; filename="Lab.csv"` },
        }),
    );
    const file = await fetchDeviceCsv(7, { preset: "24h", from: "", to: "" }, now);
    expect(urls).toEqual([
      `${PAGE_ORIGIN}/devices/data/download-device-data-by-date-range/7?startTime=2026-11-21T12%3A00%3A00Z&endTime=2026-11-22T12%3A00%3A00Z include`,
    ]);
    expect(file?.fileName).toBe("Lab.csv");
    expect(await file?.blob.text()).toBe("Time (UTC),Cold Room - Temperature (°C)\n");
    expect($download.get()).toEqual({ busy: false, errors: [] });
  });

  test("says the download failed, or the server's reason when it refuses (plan, data age)", async () => {
    csvServer(() => new Response("boom", { status: 500 }));
    expect(await fetchDeviceCsv(7, { preset: "24h", from: "", to: "" }, now)).toBeNull();
    expect($download.get().errors).toEqual([{ field: null, message: DOWNLOAD_FAILED }]);
    csvServer(() =>
      Response.json(
        { success: false, data: [{ field: null, message: PLAN_MESSAGES.csvExport }] },
        { status: 403 },
      ),
    );
    expect(await fetchDeviceCsv(7, { preset: "24h", from: "", to: "" }, now)).toBeNull();
    expect($download.get().errors).toEqual([{ field: null, message: PLAN_MESSAGES.csvExport }]);
    csvServer(() => {
      throw new TypeError("Failed to fetch");
    });
    expect(await fetchDeviceCsv(7, { preset: "24h", from: "", to: "" }, now)).toBeNull();
    expect($download.get().errors).toEqual([{ field: null, message: DOWNLOAD_FAILED }]);
  });

  test("sends nothing for a custom range it refuses", async () => {
    const urls = csvServer(() => new Response(""));
    expect(await fetchDeviceCsv(7, { preset: "custom", from: "", to: "" }, now)).toBeNull();
    expect($download.get().errors.map((e) => e.field)).toEqual(["from", "to"]);
    expect(urls).toEqual([]);
  });
});
