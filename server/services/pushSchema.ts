import { z } from "zod";
import { parseChannelKey } from "../../src/domain/channelKey.ts";

/** The body a device posts to /api/v1/device-data/push. Temperatures are in Celsius. */
export const PushSchema = z.strictObject({
  macAddress: z.string().trim().min(1, "macAddress is required.").max(64),
  uptime: z
    .number()
    .int()
    .min(0)
    .max(10 * 365 * 86400)
    .optional(),
  readings: z
    .array(
      z.strictObject({
        channelKey: z
          .string()
          .refine(
            (k) => parseChannelKey(k) !== null,
            "Channel key is not in the form device_sensor_groupType_groupIndex_channelType[_channelIndex].",
          ),
        value: z.number().finite("Reading value must be a finite number."),
        time: z.number().int().positive().optional(),
      }),
    )
    .min(1, "At least one reading is required.")
    .max(2000, "At most 2000 readings per push."),
  sensors: z
    .array(
      z.strictObject({
        macAddress: z.string().min(1).max(64),
        battery: z.number().int().min(0).max(100).optional(),
        signal: z.number().int().min(-150).max(0).optional(),
        pluggedIn: z.boolean().optional(),
      }),
    )
    .max(500)
    .optional(),
});
export type Push = z.infer<typeof PushSchema>;
