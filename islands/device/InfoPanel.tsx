import { useStore } from "@nanostores/react";
import type { DeviceGeneral } from "../../src/api/devices.ts";
import { infoRows, type InfoPart } from "../../src/domain/deviceView.ts";
import { $devicePrefs } from "../../src/stores/device.ts";
import { PAINTED_ICONS } from "./icons.ts";
import { useNow } from "./useNow.ts";

const Open = PAINTED_ICONS.open;

function Part({ part }: { part: InfoPart }) {
  switch (part.kind) {
    case "text":
      return <>{part.text}</>;
    case "link":
      return <a href={part.href}>{part.text}</a>;
    case "open":
      return (
        <a className="open-interface" href={part.href} target="_blank" rel="noopener noreferrer">
          <Open size="1em" />
          <span>{part.text}</span>
          <span className="visually-hidden"> (opens in a new window)</span>
        </a>
      );
    case "icon": {
      const Shape = PAINTED_ICONS[part.icon];
      return (
        <span className={`info-icon info-icon-${part.icon}`}>
          <Shape size="1em" role="img" aria-label={part.label} />
        </span>
      );
    }
    case "badge":
      return <span className={`badge badge-${part.text === "Pushing" ? "ok" : "bad"}`}>{part.text}</span>;
  }
}

/** The device info panel of spec section 2 (rows from src/domain/deviceView.ts). */
export function InfoPanel({ general }: { general: DeviceGeneral }) {
  const { zone } = useStore($devicePrefs);
  const now = useNow();
  return (
    <section className="device-info" aria-labelledby="device-info-title">
      <h2 id="device-info-title">Device Info</h2>
      {general.imageUrl && (
        <img className="device-image" src={general.imageUrl} alt={general.model ?? general.deviceType} />
      )}
      <dl className="facts device-facts">
        {infoRows(general, zone, now).map((row) => [
          <dt key={`${row.id}-label`}>{row.label}</dt>,
          <dd key={row.id} data-row={row.id}>
            {row.parts.map((part, i) => (
              <Part key={i} part={part} />
            ))}
          </dd>,
        ])}
      </dl>
      <p className="muted device-note">Times in your account's time zone, {zone}.</p>
    </section>
  );
}
