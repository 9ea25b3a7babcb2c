import { useStore } from "@nanostores/react";
import { useEffect, useId } from "react";
import {
  $devices,
  $deviceSearch,
  $deviceTagFilter,
  $deviceTags,
  DEVICE_MAP_PATH,
  $shownDevices,
  loadDevices,
  setTagFilter,
} from "../../src/stores/devices.ts";
import { EmptyState } from "../ui/EmptyState.tsx";
import { DeviceTable } from "./DeviceTable.tsx";
import { loadActiveAlarms } from "../../src/stores/alerts.ts";
import { LoadFailed } from "./LoadFailed.tsx";
import "../../src/styles/devices.css";

/** /s/devices: the active subscription's devices, searchable by name and filtered by tag. */
export default function DevicesPage() {
  const state = useStore($devices);
  useEffect(() => {
    void loadDevices();
    void loadActiveAlarms();
  }, []);
  return (
    <section className="devices-page" aria-labelledby="devices-title">
      <header className="page-head">
        <h1 id="devices-title">Devices</h1>
        <a href={DEVICE_MAP_PATH}>Device Map</a>
      </header>
      {state.status === "loading" && <p aria-busy="true">Loading devices...</p>}
      {state.status === "error" && <LoadFailed message={state.message} onRetry={() => void loadDevices()} />}
      {state.status === "ready" &&
        (state.list.length ? (
          <FilteredDevices total={state.list.length} />
        ) : (
          <EmptyState
            title="No devices yet"
            text="Devices registered to this subscription appear here with their readings and status."
          />
        ))}
    </section>
  );
}

/** The search, the tag filter, and the devices that match both. */
function FilteredDevices({ total }: { total: number }) {
  const search = useStore($deviceSearch);
  const tag = useStore($deviceTagFilter);
  const tags = useStore($deviceTags);
  const shown = useStore($shownDevices);
  const searchId = useId();
  const tagId = useId();
  const clear = () => {
    $deviceSearch.set("");
    $deviceTagFilter.set(null);
  };
  return (
    <>
      <div className="device-filters">
        <div>
          <label htmlFor={searchId}>Search by name</label>
          <input
            id={searchId}
            type="search"
            value={search}
            autoComplete="off"
            onChange={(e) => $deviceSearch.set(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor={tagId}>Tag</label>
          <select id={tagId} value={tag ?? ""} onChange={(e) => setTagFilter(e.target.value)}>
            <option value="">All tags</option>
            {tags.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p role="status" className="muted">
        {shown.length === total
          ? `${total} ${total === 1 ? "device" : "devices"}`
          : `${shown.length} of ${total} devices`}
      </p>
      {shown.length ? (
        <DeviceTable devices={shown} caption="Devices of this subscription" />
      ) : (
        <section className="empty-state">
          <h2>No matching devices</h2>
          <p>No device matches the name and tag chosen.</p>
          <button type="button" className="outline" onClick={clear}>
            Show all devices
          </button>
        </section>
      )}
    </>
  );
}
