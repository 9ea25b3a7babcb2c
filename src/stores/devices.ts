import { atom, computed } from "nanostores";
import { listDevices, type DeviceListItem } from "../api/devices.ts";
import { call } from "./http.ts";

/*
 * The signed-in device list (/s/devices) and the device map (/devices/device-map): the active
 * subscription's devices, filtered by tag and by a search of their names, or placed by their
 * coordinates and grouped by their location text.
 */

export const DEVICES_LOAD_FAILED = "Unexpected error loading devices. Please try again.";
export const NO_LOCATION = "No location";
/** The device map (Go to Map of the location dialog). */
export const DEVICE_MAP_PATH = "/devices/device-map";

export type DevicesState =
  { status: "loading" } | { status: "ready"; list: DeviceListItem[] } | { status: "error"; message: string };

/** The active subscription's devices, by name. */
export const $devices = atom<DevicesState>({ status: "loading" });
/** The list's name search, as typed. */
export const $deviceSearch = atom("");
/** The tag the list is narrowed to, or null for every device. */
export const $deviceTagFilter = atom<number | null>(null);

let asked = 0;

/** Asks for the device list (again); the last question's answer wins. */
export async function loadDevices() {
  const ask = ++asked;
  if ($devices.get().status !== "ready") $devices.set({ status: "loading" });
  try {
    const { deviceList } = await call(listDevices);
    if (ask === asked) $devices.set({ status: "ready", list: deviceList });
  } catch {
    if (ask === asked) $devices.set({ status: "error", message: DEVICES_LOAD_FAILED });
  }
}

/** Devices whose name contains the search (any case, spaces at the ends ignored) and that carry the tag. */
export function filterDevices(
  list: readonly DeviceListItem[],
  search: string,
  tagId: number | null,
): DeviceListItem[] {
  const words = search.trim().toLocaleLowerCase();
  return list.filter(
    (d) =>
      d.name.toLocaleLowerCase().includes(words) && (tagId === null || d.tagList.some((t) => t.id === tagId)),
  );
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: "base" });

/** Every tag some device carries, by name: the choices of the tag filter. */
export function tagsOf(list: readonly DeviceListItem[]): { id: number; name: string }[] {
  const seen = new Map<number, { id: number; name: string }>();
  for (const d of list) for (const t of d.tagList) seen.set(t.id, t);
  return [...seen.values()].sort(byName);
}

const readyList = (s: DevicesState) => (s.status === "ready" ? s.list : []);

/** The tag filter's choices. */
export const $deviceTags = computed($devices, (s) => tagsOf(readyList(s)));
/** The devices the list shows. */
export const $shownDevices = computed([$devices, $deviceSearch, $deviceTagFilter], (s, search, tag) =>
  filterDevices(readyList(s), search, tag),
);

/** Narrows the list to a tag, by the filter's value ('' for every device). */
export function setTagFilter(value: string) {
  $deviceTagFilter.set(value === "" ? null : Number(value));
}

/** The devices grouped by their location text (trimmed; none last as 'No location'), each group by name. */
export function groupByLocation(list: readonly DeviceListItem[]) {
  const groups = new Map<string, DeviceListItem[]>();
  for (const d of list) {
    const place = d.location?.trim() || NO_LOCATION;
    groups.set(place, [...(groups.get(place) ?? []), d]);
  }
  return [...groups.entries()]
    .map(([location, devices]) => ({ location, devices: devices.sort(byName) }))
    .sort((a, b) =>
      a.location === NO_LOCATION
        ? 1
        : b.location === NO_LOCATION
          ? -1
          : byName({ name: a.location }, { name: b.location }),
    );
}

/**
 * The map's units: x = (lng + 180) * 10, y = (90 - lat) * 10 (islands/devices/worldOutline.ts).
 * The whole map shows latitudes 84 to -60, 2.5 times as wide as high.
 */
export const MAP_VIEW = { top: 60, bottom: 1500, width: 3600 } as const;
const ASPECT = MAP_VIEW.width / (MAP_VIEW.bottom - MAP_VIEW.top);
/** The map shows at least 40 degrees of longitude around the devices, with 10 degrees to spare around them. */
const MIN_WIDTH = 400;
const MARGIN = 100;

export interface MapBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Where a coordinate sits on the map, held inside the drawn window. */
export function mapPoint(geocode: { lat: number; lng: number }): { x: number; y: number } {
  return {
    x: clamp((geocode.lng + 180) * 10, 0, MAP_VIEW.width),
    y: clamp((90 - geocode.lat) * 10, MAP_VIEW.top + 20, MAP_VIEW.bottom - 20),
  };
}

/** The whole drawn world. */
export const WORLD_BOX: MapBox = {
  x: 0,
  y: MAP_VIEW.top,
  width: MAP_VIEW.width,
  height: MAP_VIEW.bottom - MAP_VIEW.top,
};

/**
 * The part of the map that holds every point with a margin, at least 40 degrees wide, in the
 * map's proportions and inside the world; the whole world without points or when they spread.
 */
export function fitBox(points: readonly { x: number; y: number }[]): MapBox {
  if (!points.length) return WORLD_BOX;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  let width = Math.max(right - left + 2 * MARGIN, MIN_WIDTH);
  let height = bottom - top + 2 * MARGIN;
  if (width / height < ASPECT) width = height * ASPECT;
  else height = width / ASPECT;
  if (width >= WORLD_BOX.width || height >= WORLD_BOX.height) return WORLD_BOX;
  return {
    x: clamp((left + right) / 2 - width / 2, 0, WORLD_BOX.width - width),
    y: clamp((top + bottom) / 2 - height / 2, WORLD_BOX.y, MAP_VIEW.bottom - height),
    width,
    height,
  };
}

/** The devices with coordinates, for the map; the rest are listed only. */
export const $mappedDevices = computed($devices, (s) =>
  readyList(s).flatMap((d) => (d.geocode ? [{ device: d, point: mapPoint(d.geocode) }] : [])),
);
/** The devices by location, beside the map. */
export const $devicesByLocation = computed($devices, (s) => groupByLocation(readyList(s)));
