import { useStore } from "@nanostores/react";
import type { ChannelOption } from "../../src/api/reportBuilder.ts";
import { unitIn } from "../../src/domain/device.ts";
import { $reportPrefs } from "../../src/stores/reportList.ts";
import { $draft, groupOptions, setChannelColor, toggleChannel } from "../../src/stores/reports.ts";

/** The subscription's channels by device and sensor: a box each, and a colour once picked. */
export function ChannelPicker({ options }: { options: ChannelOption[] }) {
  const draft = useStore($draft);
  // Units as the person reads them: temperatures in their scale, as the ranges are typed.
  const { scale } = useStore($reportPrefs);
  const picked = new Map(draft.channels.map((c) => [c.channelId, c]));
  return (
    <fieldset className="channel-picker">
      <legend>Channels ({draft.channels.length} chosen)</legend>
      {options.length === 0 && <p>No device channels yet.</p>}
      {groupOptions(options).map((device) => (
        <details
          key={device.deviceName}
          open={device.sensors.some((s) => s.channels.some((c) => picked.has(c.channelId)))}
        >
          <summary>{device.deviceName}</summary>
          {device.sensors.map((sensor) => (
            <fieldset key={sensor.sensorName} className="channel-sensor">
              <legend>{sensor.sensorName}</legend>
              {sensor.channels.map((ch) => {
                const chosen = picked.get(ch.channelId);
                return (
                  <div key={ch.channelId} className="channel-choice">
                    <label>
                      <input
                        type="checkbox"
                        checked={!!chosen}
                        onChange={() => toggleChannel(ch.channelId)}
                      />
                      {`${sensor.sensorName} - ${ch.channelName}`}
                      {unitIn(ch.kind, ch.units, scale) ? ` (${unitIn(ch.kind, ch.units, scale)})` : ""}
                    </label>
                    {chosen && (
                      <input
                        type="color"
                        aria-label={`Colour of ${sensor.sensorName} - ${ch.channelName}`}
                        value={chosen.color}
                        onChange={(e) => setChannelColor(ch.channelId, e.target.value)}
                      />
                    )}
                  </div>
                );
              })}
            </fieldset>
          ))}
        </details>
      ))}
    </fieldset>
  );
}
