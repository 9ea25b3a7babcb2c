import { eq, sql } from "drizzle-orm";
import { type Db, inTransaction } from "../db/client.ts";
import { channelGroups, channels, sensors } from "../db/schema/index.ts";
import { ApiError, type FieldError } from "../core/errors.ts";
import { isAdjustableKind } from "../../src/domain/device.ts";
import { roundFor } from "../../src/domain/temperature.ts";
import type { InputOf } from "../../src/api/endpoint.ts";
import type { updateSensor } from "../../src/api/devices.ts";
import { groupByKey, type GroupRecord } from "./sensors.ts";

export const NOT_IN_SENSOR = "That channel does not belong to this sensor.";
export const NOT_ADJUSTABLE =
  "Adjustments apply only to temperature, humidity, heat index, dew point, voltage and computed analog channels.";

type Settings = InputOf<typeof updateSensor>;

/** Field errors of a settings save: each channel must be the sensor's, and adjustable if adjusted. */
function channelErrors(record: GroupRecord, input: Settings): FieldError[] {
  const byKey = new Map(record.channels.map((c) => [c.channelKey, c]));
  return input.channels.flatMap((c, i): FieldError[] => {
    const channel = byKey.get(c.channelKey);
    if (!channel) return [{ field: `channels.${i}.channelKey`, message: NOT_IN_SENSOR }];
    if (c.adjust !== 0 && !isAdjustableKind(channel.kind))
      return [{ field: `channels.${i}.adjust`, message: NOT_ADJUSTABLE }];
    return [];
  });
}

/**
 * Saves a sensor's settings in one transaction: the label (an empty one clears it; a sensor
 * with a single group takes the label too, so its card and header agree), the hidden flag,
 * and each named channel's adjustment, stored in Celsius rounded to 2 decimals.
 */
export async function saveSensorSettings(db: Db, record: GroupRecord, input: Settings) {
  const errors = channelErrors(record, input);
  if (errors.length) throw new ApiError(400, errors);
  await inTransaction(db, async (tx) => {
    const patch = {
      ...(input.label === undefined ? {} : { label: input.label === "" ? null : input.label }),
      ...(input.isHidden === undefined ? {} : { isHidden: input.isHidden }),
    };
    if (Object.keys(patch).length)
      await tx.update(channelGroups).set(patch).where(eq(channelGroups.id, record.group.id));
    if (input.label !== undefined)
      await tx
        .update(sensors)
        .set({ label: input.label === "" ? null : input.label })
        .where(
          sql`${sensors.id} = ${record.sensor.id} and (select count(*) from channel_groups g where g.sensor_id = ${record.sensor.id}) = 1`,
        );
    for (const c of input.channels)
      await tx
        .update(channels)
        .set({ adjust: roundFor("C", c.adjust) })
        .where(eq(channels.channelKey, c.channelKey));
  });
  return (await groupByKey(db, record.group.channelKey))!;
}
