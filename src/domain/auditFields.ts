// A recorded field and its value in words, for the audit viewer and its CSV: the rows keep the
// fields as the code names them (visitorsMaySubscribe, condition: {...}), a person reads words.
import { momentText, recordedMoment } from "./auditTime.ts";
import { parseChannelKey } from "./channelKey.ts";

/** Field names that splitting the code's name into words would not say well. */
const FIELD_NAMES: Record<string, string> = {
  channelKey: "channel",
  channel: "channel",
  deviceId: "device",
  tagId: "tag",
  tagIds: "tags",
  thresholdRangeId: "threshold range",
  timeInterval: "time window (seconds)",
  startDate: "start",
  endDate: "end",
  mktActivationEnergy: "MKT activation energy",
  expiresAt: "link expires",
  showAlarmNotes: "alarm notes shown to visitors",
  isHidden: "hidden",
  geocode: "coordinates",
  timeZone: "time zone",
  timezone: "time zone",
  cadence: "how often",
  emails: "addresses",
  members: "members",
  userIds: "people (user ids)",
  webhookUrls: "webhooks",
  amountCents: "amount",
  ended: "browsers signed out",
  oneTimePasscode: "one-time passcode",
  escalationLevel: "escalation tier",
  notices: "notices sent",
  deadBand: "dead band",
  graceSeconds: "grace (seconds)",
  delaySeconds: "delay (seconds)",
  delayReadings: "delay (readings)",
  repeatMinutes: "repeat (minutes)",
  afterMinutes: "after (minutes)",
  actor: "person",
  action: "action",
  from: "from",
  to: "to",
  at: "at",
};

/**
 * "visitorsMaySubscribe" as "visitors may subscribe"; "adjust temperature" stays as it is. Lower
 * case, as a label before a colon in a list ("name: Freezer → Freezer 2").
 */
export function fieldName(field: string): string {
  const known = FIELD_NAMES[field];
  if (known) return known;
  return field
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase();
}

/** A channel key as "sensor W1A001 on 00:1A:2B:3C:4D:01, channel 1", or the text itself. */
function channelText(text: string): string {
  const key = parseChannelKey(text);
  if (!key) return text;
  const channel = key.channelIndex === null ? "" : `, channel ${key.channelIndex}`;
  return `sensor ${key.sensorAddress} on ${key.deviceAddress}${channel}`;
}

/**
 * A recorded value in words: null and empty as "(none)", true/false as Yes/No, moments in the
 * viewer's `zone` (in UTC without one), channel keys by sensor, lists joined by commas, objects
 * as "low 2, high 8" (empty parts left out). `field` picks the reading of a bare value
 * (amountCents 1250 is "$12.50").
 */
export function valueText(v: unknown, field = "", zone?: string): string {
  if (v === null || v === undefined || v === "") return "(none)";
  if (typeof v === "boolean") return v ? "Yes" : "No";
  if (typeof v === "number") return field === "amountCents" ? `$${(v / 100).toFixed(2)}` : String(v);
  if (typeof v === "string") {
    const at = recordedMoment(v, field);
    if (at !== null) return momentText(at, zone);
    if (field === "channelKey" || field === "channel") return channelText(v);
    return v;
  }
  if (Array.isArray(v)) return v.length ? v.map((x) => valueText(x, field, zone)).join(", ") : "(none)";
  if (typeof v === "object") {
    const parts = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== null && x !== undefined && x !== "" && !(Array.isArray(x) && !x.length))
      .map(([k, x]) => `${fieldName(k)} ${valueText(x, k, zone)}`);
    return parts.length ? parts.join(", ") : "(none)";
  }
  return String(v);
}
