import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { channelKeyField } from "./fields.ts";

/* What devices send (spec section 7): the one call a device makes, with its own key. */

/**
 * The largest reading a device may send, either sign. Far beyond any environmental quantity
 * (pressure in pascals, light in lux, CO2 in ppm), and small enough that a bucket's sum of a
 * month of per-second readings stays exact in a double: a "max double" placeholder from a
 * faulty sensor would overflow the rollup's sum and fail the whole push.
 */
export const MAX_READING = 1e9;
export const READING_RULE = "Reading value must be a finite number between -1000000000 and 1000000000.";

/** The body a device posts with its key. Temperatures are in Celsius, times epoch seconds. */
export const PushSchema = z.strictObject({
  macAddress: z.string().check(z.trim(), z.minLength(1, "macAddress is required."), z.maxLength(64)),
  uptime: z.optional(z.int().check(z.minimum(0), z.maximum(10 * 365 * 86400))),
  readings: z
    .array(
      z.strictObject({
        channelKey: channelKeyField,
        value: z
          .number({ error: READING_RULE })
          .check(z.minimum(-MAX_READING, READING_RULE), z.maximum(MAX_READING, READING_RULE)),
        time: z.optional(z.int().check(z.positive())),
      }),
    )
    .check(
      z.minLength(1, "At least one reading is required."),
      z.maxLength(2000, "At most 2000 readings per push."),
    ),
  sensors: z.optional(
    z
      .array(
        z.strictObject({
          macAddress: z.string().check(z.minLength(1), z.maxLength(64)),
          battery: z.optional(z.int().check(z.minimum(0), z.maximum(100))),
          signal: z.optional(z.int().check(z.minimum(-150), z.maximum(0))),
          pluggedIn: z.optional(z.boolean()),
        }),
      )
      .check(z.maxLength(500)),
  ),
});
export type Push = z.infer<typeof PushSchema>;

export const pushReadings = endpoint({
  method: "post",
  path: "/api/v1/device-data/push",
  host: "api",
  body: "json",
  request: PushSchema,
  response: z.object({ accepted: z.number() }),
  summary:
    "A device's readings, authenticated with `Authorization: Device {key}`; stored whole or not at all.",
});
