import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import type { DeviceListItem } from "../../src/api/devices.ts";
import {
  $devices,
  $devicesByLocation,
  $mappedDevices,
  loadDevices,
  MAP_VIEW,
} from "../../src/stores/devices.ts";
import { EmptyState } from "../ui/EmptyState.tsx";
import { devicePath } from "./DeviceTable.tsx";
import { LoadFailed } from "./LoadFailed.tsx";
import { StatusDot, STATUS_TEXT } from "./StatusDot.tsx";
import { WORLD_LAND } from "./worldOutline.ts";
import "../../src/styles/devices.css";

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
        <a href="/s/devices">All devices</a>
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

/** The map: land, and a labelled pin per device with coordinates, each a link to its page. */
function WorldMap() {
  const mapped = useStore($mappedDevices);
  const { top, bottom, width } = MAP_VIEW;
  return (
    <figure className="world-map">
      <svg viewBox={`0 ${top} ${width} ${bottom - top}`} role="group" aria-label="World map of devices">
        <rect x="0" y={top} width={width} height={bottom - top} className="sea" />
        <path d={WORLD_LAND} className="land" aria-hidden="true" />
        {mapped.map(({ device, point }) => (
          <a key={device.id} href={devicePath(device.id)} aria-label={pinLabel(device)}>
            <g className={`pin status-${device.status}`} transform={`translate(${point.x} ${point.y})`}>
              <circle r="4.5" />
              <text x="7" y="3">
                {device.name}
              </text>
            </g>
          </a>
        ))}
      </svg>
      <figcaption className="muted">
        {mapped.length === 1 ? "1 device" : `${mapped.length} devices`} placed by coordinates. Set a device's
        coordinates with Update Location on its page.
      </figcaption>
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
