import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState } from "react";
import type { DeviceListItem } from "../../src/api/devices.ts";
import {
  $devices,
  $devicesByLocation,
  $mappedDevices,
  fitBox,
  loadDevices,
  MAP_VIEW,
  WORLD_BOX,
} from "../../src/stores/devices.ts";
import { EmptyState } from "../ui/EmptyState.tsx";
import { devicePath } from "./DeviceTable.tsx";
import { LoadFailed } from "./LoadFailed.tsx";
import { StatusDot, STATUS_TEXT } from "./StatusDot.tsx";
import { useNamePlaces } from "./useNamePlaces.ts";
import { WORLD_LAND } from "./worldOutline.ts";
import "../../src/styles/devices.css";
import { appPath } from "../../src/domain/appPaths.ts";

const coordinates = (g: { lat: number; lng: number }) => `${g.lat.toFixed(4)}, ${g.lng.toFixed(4)}`;

/**
 * /devices/device-map: the subscription's devices placed by their coordinates on a world map
 * drawn from a bundled outline (no tile service, no request to anyone else), and beside it
 * every device by its location text.
 */
export default function DeviceMapPage() {
  const state = useStore($devices);
  useEffect(() => void loadDevices(), []);
  return (
    <section className="device-map-page" aria-labelledby="map-title">
      <header className="page-head">
        <h1 id="map-title">Device Map</h1>
        <a href={appPath("devices")}>All devices</a>
      </header>
      {state.status === "loading" && <p aria-busy="true">Loading devices...</p>}
      {state.status === "error" && <LoadFailed message={state.message} onRetry={() => void loadDevices()} />}
      {state.status === "ready" &&
        (state.list.length ? (
          <div className="map-layout">
            <WorldMap />
            <ByLocation />
          </div>
        ) : (
          <EmptyState title="No devices yet" text="Devices registered to this subscription appear here." />
        ))}
    </section>
  );
}

/**
 * The map: land drawn as SVG, zoomed to the devices (or the whole world), and a pin per device
 * with coordinates laid over it as a link to its page (pins and names keep their size).
 */
function WorldMap() {
  const mapped = useStore($mappedDevices);
  const [whole, setWhole] = useState(false);
  const fitted = fitBox(mapped.map((m) => m.point));
  const box = whole ? WORLD_BOX : fitted;
  const zoomed = box !== WORLD_BOX;
  const shown = mapped.filter(
    ({ point: p }) => p.x >= box.x && p.x <= box.x + box.width && p.y >= box.y && p.y <= box.y + box.height,
  );
  const list = useRef<HTMLUListElement>(null);
  const places = useNamePlaces(list, `${box.x} ${box.y} ${box.width} ${shown.length}`);
  const left = (p: { x: number }) => ((p.x - box.x) / box.width) * 100;
  const at = (p: { x: number; y: number }) => ({
    left: `${left(p)}%`,
    top: `${((p.y - box.y) / box.height) * 100}%`,
  });
  const classOf = (id: number, status: string) => {
    const place = places.get(String(id)) ?? "right";
    return `pin status-${status}${place === "right" ? "" : ` ${place === "left" ? "flip" : "crowded"}`}`;
  };
  return (
    <figure className="world-map" aria-labelledby="map-caption">
      <div className="map-frame">
        <svg viewBox={`${box.x} ${box.y} ${box.width} ${box.height}`} aria-hidden="true" focusable="false">
          <rect
            x="0"
            y={MAP_VIEW.top}
            width={MAP_VIEW.width}
            height={MAP_VIEW.bottom - MAP_VIEW.top}
            className="sea"
          />
          <path d={WORLD_LAND} className="land" vectorEffect="non-scaling-stroke" />
        </svg>
        <ul className="pins" aria-label="Devices on the map" ref={list}>
          {shown.map(({ device, point }) => (
            <li
              key={device.id}
              data-id={device.id}
              className={classOf(device.id, device.status)}
              style={at(point)}
            >
              <a href={devicePath(device.id)} aria-label={pinLabel(device)} title={device.name}>
                <span className="dot" aria-hidden="true" />
                <span className="pin-name">{device.name}</span>
              </a>
            </li>
          ))}
        </ul>
      </div>
      <figcaption id="map-caption" className="muted">
        {mapped.length === 1 ? "1 device" : `${mapped.length} devices`} placed by coordinates
        {zoomed ? ", the map zoomed to them" : ""}. Set a device's coordinates with Update Location on its
        page.
      </figcaption>
      {fitted !== WORLD_BOX && (
        <button type="button" className="secondary outline" onClick={() => setWhole(!whole)}>
          {whole ? "Zoom to the devices" : "Show the whole world"}
        </button>
      )}
    </figure>
  );
}

const pinLabel = (d: DeviceListItem) =>
  `${d.name}, ${STATUS_TEXT[d.status]}, ${d.location ?? "no location"}${d.geocode ? ` (${coordinates(d.geocode)})` : ""}`;

/** Every device under its location text, with its coordinates or a note that it has none. */
function ByLocation() {
  const groups = useStore($devicesByLocation);
  return (
    <section className="by-location" aria-labelledby="by-location-title">
      <h2 id="by-location-title">By location</h2>
      {groups.map((g) => (
        <section key={g.location} aria-label={g.location}>
          <h3>{g.location}</h3>
          <ul>
            {g.devices.map((d) => (
              <li key={d.id}>
                <a href={devicePath(d.id)}>{d.name}</a> <StatusDot status={d.status} />
                <br />
                <small className="muted">
                  {d.geocode ? coordinates(d.geocode) : "No coordinates: not on the map"}
                </small>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
