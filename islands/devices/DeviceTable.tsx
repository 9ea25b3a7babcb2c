import { getPagePath } from "@nanostores/router";
import { useStore } from "@nanostores/react";
import type { DeviceListItem } from "../../src/api/devices.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { formatPushTime } from "../../src/domain/deviceView.ts";
import { $devicePrefs } from "../../src/stores/device.ts";
import { $router } from "../../src/stores/router.ts";
import { $alarmIndex } from "../../src/stores/alerts.ts";
import "../device/alarm.css";
import { StatusDot } from "./StatusDot.tsx";

/** A device's page in the signed-in app. */
export const devicePath = (id: number) => getPagePath($router, "deviceDetails", { id: String(id) });

interface Props {
  devices: readonly DeviceListItem[];
  caption: string;
}

/**
 * Devices as a table: name (to the device page), type, tags, location, last push in the
 * account's zone, and the status dot with its word. On a phone each row is a card.
 */
export function DeviceTable({ devices, caption }: Props) {
  const { zone } = useStore($devicePrefs);
  const inAlarm = useStore($alarmIndex).devices;
  return (
    <div className="device-table-wrap">
      {/* The zone once for the list: a phone's cards have no column header to carry it. */}
      <p className="muted device-zone">Times in {zone}.</p>
      <table className="device-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Tags</th>
            <th scope="col">Location</th>
            <th scope="col">Last push</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {devices.map((d) => (
            <tr key={d.id} className={inAlarm.has(d.id) ? "device-in-alarm" : undefined}>
              <th scope="row" data-label="Name">
                <a href={devicePath(d.id)}>{d.name}</a>
                {inAlarm.has(d.id) && <span className="alarm-tag">In alarm</span>}
              </th>
              <td data-label="Type">{d.deviceType}</td>
              <td data-label="Tags">
                {d.tagList.length ? (
                  <ul className="chips">
                    {d.tagList.map((t) => (
                      <li key={t.id}>{t.name}</li>
                    ))}
                  </ul>
                ) : (
                  <span className="muted">No tags</span>
                )}
              </td>
              <td data-label="Location">{d.location ?? <span className="muted">No location</span>}</td>
              <td data-label="Last push">
                {d.lastMessageTimestamp === null ? (
                  <span className="muted">Never</span>
                ) : (
                  <time dateTime={new Date(d.lastMessageTimestamp * 1000).toISOString()}>
                    {formatPushTime(epochSeconds(d.lastMessageTimestamp), zone)}
                  </time>
                )}
              </td>
              <td data-label="Status">
                <StatusDot status={d.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
