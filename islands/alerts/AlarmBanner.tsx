import { useStore } from "@nanostores/react";
import { getPagePath } from "@nanostores/router";
import { useEffect } from "react";
import { $activeAlarms, loadActiveAlarms } from "../../src/stores/alerts.ts";
import { $router } from "../../src/stores/router.ts";
import "../device/alarm.css";

/**
 * Active alarms at the head of a page: the home page's (every device) and a device page's
 * (its own). Nothing when none is active. `load` asks for them when it shows (the device page's
 * live updates keep its own fresh, src/stores/deviceLive.ts).
 */
export function AlarmBanner({ deviceId, load = true }: { deviceId?: number; load?: boolean }) {
  const all = useStore($activeAlarms);
  useEffect(() => {
    if (load) void loadActiveAlarms(deviceId);
  }, [deviceId, load]);
  const list = deviceId === undefined ? all : all.filter((a) => a.deviceId === deviceId);
  if (!list.length) return null;
  const triggered = list.filter((a) => a.state === "triggered").length;
  return (
    <section className="device-alarms" aria-labelledby="alarm-banner-title" role="region">
      <h2 id="alarm-banner-title" className="alarm-banner-title">
        {triggered
          ? `${triggered} alarm${triggered === 1 ? " needs" : "s need"} attention`
          : "Acknowledged alarms"}
      </h2>
      <ul>
        {list.slice(0, 10).map((a) => (
          <li key={a.id}>
            <strong>{a.state === "triggered" ? "In alarm" : "Acknowledged"}</strong>: {a.ruleName} ·{" "}
            {deviceId === undefined && (
              <>
                <a href={getPagePath($router, "deviceDetails", { id: String(a.deviceId) })}>{a.deviceName}</a>
                {" · "}
              </>
            )}
            {a.channelName && `${a.channelName} · `}
            {a.valueText}
            {a.limitText && ` (limit ${a.limitText})`}
          </li>
        ))}
      </ul>
      <a href={getPagePath($router, "alerts")}>All alarms</a>
    </section>
  );
}
