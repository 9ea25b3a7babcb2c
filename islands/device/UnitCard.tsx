import "./alarm.css";
import { BATTERY_ICON, batteryText, explorePath, type Card } from "../../src/domain/dashboard.ts";
import { PAINTED_ICONS } from "./icons.ts";

const Warning = PAINTED_ICONS.warning;
const Signal = PAINTED_ICONS.signal;

function Status({ card }: { card: Card }) {
  if (!card.battery && !card.signal) return null;
  const Battery = card.battery ? PAINTED_ICONS[BATTERY_ICON[card.battery.band]] : null;
  return (
    <p className="unit-status">
      {card.battery && Battery && (
        <span
          className={`battery battery-${card.battery.band.toLowerCase()}${card.battery.alert ? " battery-alert" : ""}`}
        >
          <Battery size="1em" />
          {batteryText(card.battery)}
        </span>
      )}
      {card.signal && (
        <span className="signal">
          <Signal size="1em" />
          Signal: {card.signal.strength} ({card.signal.dbm} dBm)
        </span>
      )}
    </p>
  );
}

/**
 * One unit card (the public page's painter draws the same markup): readings linking to the
 * explore page, battery and signal, and the Settings button that opens its dialog.
 */
export function UnitCard({
  card,
  onSettings,
  inAlarm = false,
}: {
  card: Card;
  onSettings: (key: string) => void;
  /** A reading of the card is in an active alarm (src/stores/alerts.ts): a red card that says so. */
  inAlarm?: boolean;
}) {
  return (
    <li
      className={`unit-card${card.muted ? " is-muted" : ""}${inAlarm ? " in-alarm" : ""}`}
      data-key={card.key}
    >
      <h4>
        {card.port !== null && <span className="port">Port {card.port}</span>}
        {card.title}
        {inAlarm && <span className="alarm-tag">In alarm</span>}
        {/* Decorative (Lucide hides it): the card says it in words (dashboard.ts, Card.warning). */}
        {card.warning && <Warning size="1em" />}
      </h4>
      {card.sensorType && <p className="unit-type">{card.sensorType}</p>}
      {card.readings.length ? (
        <dl className="readings">
          {card.readings.map((r) => (
            <div key={r.channelKey}>
              <dt>{r.label}</dt>
              <dd>
                <a href={explorePath(r.channelKey)}>{r.text}</a>
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">No readings</p>
      )}
      {card.silence && <p className="unit-silence">{card.silence}</p>}
      <Status card={card} />
      <div className="unit-actions">
        <button type="button" className="secondary outline" onClick={() => onSettings(card.key)}>
          Settings<span className="visually-hidden"> of {card.title}</span>
        </button>
      </div>
    </li>
  );
}
