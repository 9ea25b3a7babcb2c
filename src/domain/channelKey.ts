/**
 * A channel key is an underscore-separated string: device address, sensor address,
 * channel group type, group index, channel type and an optional channel index.
 */
export interface ChannelKey {
  deviceAddress: string;
  sensorAddress: string;
  groupType: number;
  groupIndex: number;
  channelType: number;
  channelIndex: number | null;
}

const ADDRESS = /^[A-Za-z0-9:.-]{1,64}$/;
const INT = /^\d{1,9}$/;

/** Parses a channel key; null when it does not have the spec's shape. */
export function parseChannelKey(text: string): ChannelKey | null {
  const parts = text.split("_");
  if (parts.length !== 5 && parts.length !== 6) return null;
  const [device, sensor, groupType, groupIndex, channelType, channelIndex] = parts;
  if (!ADDRESS.test(device!) || !ADDRESS.test(sensor!)) return null;
  const ints = [groupType, groupIndex, channelType, ...(channelIndex === undefined ? [] : [channelIndex])];
  if (!ints.every((p) => INT.test(p!))) return null;
  return {
    deviceAddress: device!,
    sensorAddress: sensor!,
    groupType: Number(groupType),
    groupIndex: Number(groupIndex),
    channelType: Number(channelType),
    channelIndex: channelIndex === undefined ? null : Number(channelIndex),
  };
}

/** Formats a channel key; the group key is the same without channel type and index. */
export function formatChannelKey(key: ChannelKey): string {
  const base = [key.deviceAddress, key.sensorAddress, key.groupType, key.groupIndex, key.channelType];
  return (key.channelIndex === null ? base : [...base, key.channelIndex]).join("_");
}

/** The channel-group key: device, sensor, group type and group index. */
export function groupKeyOf(key: ChannelKey): string {
  return [key.deviceAddress, key.sensorAddress, key.groupType, key.groupIndex].join("_");
}

/** Channel-group type excluded from the internal-temperature view. */
export const INTERNAL_TEMPERATURE_EXCLUDED_GROUP = 1300;

/** Parses a channel-group key (device_sensor_groupType_groupIndex); null when malformed. */
export function parseGroupKey(
  text: string,
): Pick<ChannelKey, "deviceAddress" | "sensorAddress" | "groupType" | "groupIndex"> | null {
  const parts = text.split("_");
  if (parts.length !== 4) return null;
  const parsed = parseChannelKey(`${text}_0`);
  if (!parsed) return null;
  const { deviceAddress, sensorAddress, groupType, groupIndex } = parsed;
  return { deviceAddress, sensorAddress, groupType, groupIndex };
}
