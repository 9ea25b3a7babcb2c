import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import type { DeviceDetails } from "../../src/api/devices.ts";
import { DEVICE_ERROR_TITLE } from "../../src/domain/deviceView.ts";
import { $device, loadDevice } from "../../src/stores/device.ts";
import { followDevice } from "../../src/stores/deviceLive.ts";
import { reload } from "../../src/stores/navigate.ts";
import { $router } from "../../src/stores/router.ts";
import { AlarmBanner } from "../alerts/AlarmBanner.tsx";
import { Dashboard } from "./Dashboard.tsx";
import { DeviceHeader } from "./DeviceHeader.tsx";
import { InfoPanel } from "./InfoPanel.tsx";
import "../../src/styles/device.css";

/** The error view of spec section 2: the title, the message and Reload Page. */
export function DeviceError({ message }: { message: string }) {
  return (
    <section className="device-error" role="alert" aria-labelledby="device-error-title">
      <h1 id="device-error-title">{DEVICE_ERROR_TITLE}</h1>
      <p>{message}</p>
      <button type="button" onClick={reload}>
        Reload Page
      </button>
    </section>
  );
}

function DeviceView({ device }: { device: DeviceDetails }) {
  return (
    <article className="device-card" aria-labelledby="device-name">
      <DeviceHeader device={device.general} />
      <AlarmBanner deviceId={device.general.id} load={false} />
      <div className="device-body">
        <InfoPanel general={device.general} />
        <Dashboard device={device} />
      </div>
    </article>
  );
}

/** /s/devices/{id}: the signed-in device page, its data from src/stores/device.ts. */
export default function DevicePage() {
  const page = useStore($router);
  const id = page?.route === "deviceDetails" ? page.params.id : undefined;
  const state = useStore($device);
  useEffect(() => void loadDevice(id), [id]);
  // Live once the device shows; a new device (or leaving the page) stops the last one.
  const shownId = state.status === "success" ? state.id : null;
  useEffect(() => (shownId === null ? undefined : followDevice(shownId)), [shownId]);
  switch (state.status) {
    case "idle":
    case "pending":
      return (
        <p className="device-loading" aria-busy="true">
          Loading device...
        </p>
      );
    case "error":
      return <DeviceError message={state.message} />;
    case "success":
      return <DeviceView device={state.device} />;
  }
}
