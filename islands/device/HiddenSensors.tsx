import { useStore } from "@nanostores/react";
import type { Sensor } from "../../src/api/devices.ts";
import { hiddenGroups } from "../../src/domain/dashboard.ts";
import { $deviceRights } from "../../src/stores/device.ts";
import { $hideSave, setSensorHidden } from "../../src/stores/sensorSettings.ts";
import { FormErrors } from "../ui/Field.tsx";

/** Hidden Sensors: each hidden sensor with Show (and its settings); read-only roles only see them. */
export function HiddenSensors({
  sensors,
  onSettings,
}: {
  sensors: Sensor[];
  onSettings: (key: string) => void;
}) {
  const { editSensors } = useStore($deviceRights);
  const save = useStore($hideSave);
  const hidden = hiddenGroups(sensors);
  if (!hidden.length) return null;
  return (
    <section className="hidden-sensors" aria-labelledby="hidden-sensors-title">
      <h3 id="hidden-sensors-title">Hidden Sensors</h3>
      <ul>
        {hidden.map((g) => (
          <li key={g.key}>
            <span>{g.title}</span>
            <span className="unit-actions">
              <button type="button" className="secondary outline" onClick={() => onSettings(g.key)}>
                Settings<span className="visually-hidden"> of {g.title}</span>
              </button>
              <button
                type="button"
                disabled={!editSensors || save.busy}
                onClick={() => void setSensorHidden(g.key, false)}
              >
                Show<span className="visually-hidden"> {g.title}</span>
              </button>
            </span>
          </li>
        ))}
      </ul>
      <FormErrors messages={save.errors.map((e) => e.message)} />
    </section>
  );
}
