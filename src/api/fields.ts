import * as z from "zod/mini";
import { INVALID_EMAIL, PASSWORD_RULE, isEmail, passwordError } from "../domain/auth.ts";
import { isKnownTimezone } from "../domain/timezones.ts";
import { parseReferrer } from "../domain/publicRecord.ts";
import { parseChannelKey } from "../domain/channelKey.ts";

/** PostgreSQL integer ids: 1 to 2,147,483,647. */
export const MAX_ID = 2_147_483_647;
export const ID_RANGE = "Must be a whole number from 1 to 2147483647.";

/** A record id (int4): anything else is a 400 on the field, never a database error. */
export const idField = z.int({ error: ID_RANGE }).check(z.minimum(1, ID_RANGE), z.maximum(MAX_ID, ID_RANGE));

/** An email address, trimmed and lower-cased once, here at the edge. */
export const emailField = z
  .string({ error: INVALID_EMAIL })
  .check(z.trim(), z.toLowerCase(), z.refine(isEmail, INVALID_EMAIL));

/** A new password: 10 to 200 characters. */
export const passwordField = z
  .string({ error: PASSWORD_RULE })
  .check(z.refine((p) => passwordError(p) === null, PASSWORD_RULE));

/** The 'ord-{id}' / 'quo-{id}' record a registration started from, or empty. */
export const referrerField = z.optional(
  z.string().check(z.refine((v) => v === "" || parseReferrer(v) !== null, "Unknown referrer.")),
);

/** A person's first or last name. */
export const nameField = (label: string) =>
  z
    .string({ error: `Enter your ${label}.` })
    .check(z.trim(), z.minLength(1, `Enter your ${label}.`), z.maxLength(100, `Your ${label} is too long.`));

export const temperatureScaleField = z.enum(["C", "F"], { error: "Choose C or F." });
export const timezoneField = z.string().check(z.refine(isKnownTimezone, "Unknown time zone."));

/** A value that is filled in when the caller leaves it out (zod/mini names it `_default`). */
// oxlint-disable-next-line no-underscore-dangle
export const orDefault = z._default;

/** An emailed link's token; a missing one is an empty, unusable token. */
export const tokenField = orDefault(z.string(), "");

/** A channel's key (spec section 3): device_sensor_groupType_groupIndex_channelType[_channelIndex]. */
export const channelKeyField = z
  .string()
  .check(
    z.refine(
      (k) => parseChannelKey(k) !== null,
      "Channel key is not in the form device_sensor_groupType_groupIndex_channelType[_channelIndex].",
    ),
  );

/**
 * Whether an ISO date (and time) names a moment that exists: Date.parse alone rolls
 * 2026-02-30 over to March 2 and 24:00 over to the next day, which would serve another range
 * than the one asked for.
 */
export function isRealIsoMoment(v: string): boolean {
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d))?)?/.exec(v);
  if (!m || !Number.isFinite(Date.parse(v))) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1).map((p) => Number(p ?? 0));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return (
    month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth && hour < 24 && minute < 60 && second < 60
  );
}
