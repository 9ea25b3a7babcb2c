import { useStore } from "@nanostores/react";
import { useState, type FormEvent } from "react";
import { $settingsForm, $settingsSaved, saveSettings } from "../../../src/stores/account.ts";
import { $session } from "../../../src/stores/session.ts";
import { BusyButton } from "../../ui/BusyButton.tsx";
import { FormErrors } from "../../ui/Field.tsx";

const ZONES: string[] =
  typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];

/** Temperature scale and time zone, used by every signed-in page. */
export default function SettingsPage() {
  const session = useStore($session);
  const form = useStore($settingsForm);
  const saved = useStore($settingsSaved);
  const info = session.status === "signedIn" ? session.info : null;
  const [scale, setScale] = useState<"C" | "F">(info?.temperatureScale ?? "C");
  const [zone, setZone] = useState(info?.timezone ?? "UTC");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saveSettings({ temperatureScale: scale, timezone: zone });
  };
  return (
    <form onSubmit={submit} aria-label="Settings">
      <h1>Settings</h1>
      <fieldset>
        <legend>Temperature scale</legend>
        <label>
          <input type="radio" name="scale" checked={scale === "C"} onChange={() => setScale("C")} /> Celsius
          (°C)
        </label>
        <label>
          <input type="radio" name="scale" checked={scale === "F"} onChange={() => setScale("F")} />{" "}
          Fahrenheit (°F)
        </label>
      </fieldset>
      <label>
        Time zone
        <select value={zone} onChange={(e) => setZone(e.target.value)}>
          {(ZONES.includes(zone) ? ZONES : [zone, ...ZONES]).map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
      </label>
      <BusyButton busy={form.busy} busyLabel="Saving...">
        Save settings
      </BusyButton>
      {saved && <p role="status">Settings saved.</p>}
      <FormErrors messages={form.errors.map((e) => e.message)} />
    </form>
  );
}
