import { useStore } from "@nanostores/react";
import { lazy, Suspense, useState } from "react";
import type { DeviceDetails } from "../../src/api/devices.ts";
import {
  dashboard,
  explorePath,
  isRamax,
  temperatureView,
  type TemperatureRow,
} from "../../src/domain/dashboard.ts";
import { $devicePrefs } from "../../src/stores/device.ts";
import { usesPublicDeviceRoute } from "../../src/domain/device.ts";
import { $deviceLive } from "../../src/stores/deviceLive.ts";
import { $alarmIndex } from "../../src/stores/alerts.ts";
import { HiddenSensors } from "./HiddenSensors.tsx";
import { UnitCard } from "./UnitCard.tsx";
import { useNow } from "./useNow.ts";

const SensorSettingsDialog = lazy(() => import("./SensorSettingsDialog.tsx"));

const LIVE_NOTE: Partial<Record<string, string>> = {
  live: "Live: readings update as the device pushes.",
  reconnecting: "Reconnecting to live readings...",
  refused: "Live readings have stopped; reload the page.",
};

/** Whether the readings are live, in words. */
function LiveNote() {
  const { state } = useStore($deviceLive);
  const note = LIVE_NOTE[state];
  return (
    <p className="muted live-note" role="status">
      {note}
    </p>
  );
}

function TemperatureView({ rows }: { rows: TemperatureRow[] }) {
  if (!rows.length) return null;
  return (
    <section className="temp-view" aria-labelledby="temp-view-title">
      <h3 id="temp-view-title">Temperature overview</h3>
      <ul>
        {rows.map((r) => (
          <li key={r.key} className={r.muted ? "is-muted" : undefined}>
            <span>{r.title}</span>
            <a href={explorePath(r.reading.channelKey)}>{r.reading.text}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The device dashboard (spec section 2): the temperature view, a section per kind of unit
 * (the RAMAX panel's own layout), the Hidden Sensors list, and the settings dialogs.
 */
export function Dashboard({ device }: { device: DeviceDetails }) {
  const { scale } = useStore($devicePrefs);
  const alarmed = useStore($alarmIndex).channels;
  const now = useNow();
  // The last sensor whose settings opened stays, so the closing dialog keeps its content.
  const [settingsOf, setSettingsOf] = useState<string | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const openSettings = (key: string) => {
    setSettingsOf(key);
    setSettingsOpen(true);
  };
  const ramax = isRamax(device.general.deviceType);
  const standalone = usesPublicDeviceRoute(device.general.deviceType);
  const sections = dashboard(device.sensors, scale, now, ramax, standalone);
  return (
    <section className="device-dashboard" aria-labelledby="device-dashboard-title">
      <h2 id="device-dashboard-title">Sensors</h2>
      <LiveNote />
      <div className={`dashboard${ramax ? " ramax" : ""}`}>
        <TemperatureView rows={temperatureView(device.sensors, scale, now)} />
        {sections.map((s) => (
          <section key={s.kind} className={`dash-section dash-${s.kind}`} aria-labelledby={`dash-${s.kind}`}>
            <h3 id={`dash-${s.kind}`}>{s.title}</h3>
            <ul className="unit-cards">
              {s.cards.map((card) => (
                <UnitCard
                  key={card.key}
                  card={card}
                  onSettings={openSettings}
                  inAlarm={card.readings.some((r) => alarmed.has(r.channelKey))}
                />
              ))}
            </ul>
          </section>
        ))}
        {!sections.length && <p className="muted">No sensors to show.</p>}
      </div>
      <HiddenSensors sensors={device.sensors} onSettings={openSettings} />
      {settingsOf !== null && (
        <Suspense fallback={null}>
          <SensorSettingsDialog
            groupKey={settingsOf}
            open={settingsOpen}
            onClose={() => setSettingsOpen(false)}
          />
        </Suspense>
      )}
    </section>
  );
}
