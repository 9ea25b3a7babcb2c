import { useStore } from "@nanostores/react";
import { useState, type FormEvent } from "react";
import { saveSettings } from "../../../src/stores/account.ts";
import { $session } from "../../../src/stores/session.ts";

const ZONES: string[] =
  typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];

/** Temperature scale and time zone, used by every signed-in page. */
export function SettingsPage() {
  const session = useStore($session);
  const info = session.status === "signedIn" ? session.info : null;
  const [scale, setScale] = useState<"C" | "F">(info?.temperatureScale ?? "C");
  const [zone, setZone] = useState(info?.timezone ?? "UTC");
  const [note, setNote] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setNote(null);
    try {
      await saveSettings({ temperatureScale: scale, timezone: zone });
      setNote("Settings saved.");
    } catch (err) {
      setNote((err as Error).message);
    }
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
      <button type="submit">Save settings</button>
      {note && <p role="status">{note}</p>}
    </form>
  );
}
