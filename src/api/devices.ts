import * as z from "zod/mini";
import { parseGroupKey } from "../domain/channelKey.ts";
import { MAX_ADJUSTMENT } from "../domain/device.ts";
import { LABEL_MAX } from "../domain/labels.ts";
import { isOneLine } from "../domain/plainText.ts";
import { endpoint } from "./endpoint.ts";
import { PUBLIC_API } from "./paths.ts";
import { channelKeyField, ID_RANGE, MAX_ID, orDefault } from "./fields.ts";

/*
 * The device pages (spec sections 2, 3 and 7). Times are epoch seconds; temperature values
 * and adjustments are in Celsius (the page converts with src/domain/temperature.ts); every
 * value served is the stored reading plus the channel's current adjustment.
 */

const epoch = z.int();
const groupKeyMessage = "Sensor key is not in the form device_sensor_groupType_groupIndex.";

export const TagRefSchema = z.object({ id: z.int(), name: z.string() });
export const GeocodeSchema = z.object({ lat: z.number(), lng: z.number() });

export const ChannelSchema = z.object({
  channelKey: z.string(),
  /** temperature, humidity, dew_point, heat_index, voltage, computed_analog, co2, … */
  kind: z.string(),
  name: z.string(),
  channelType: z.int(),
  /** The latest reading with the adjustment applied; null before the first. Celsius for temperatures. */
  value: z.nullable(z.number()),
  /** The offset added to every reading (Celsius for temperatures). */
  adjust: z.number(),
  conversion: z.object({ type: z.nullable(z.string()), units: z.nullable(z.string()) }),
});
export type Channel = z.infer<typeof ChannelSchema>;

export const ChannelGroupSchema = z.object({
  /** The group key: device_sensor_groupType_groupIndex. */
  channelKey: z.string(),
  groupType: z.int(),
  groupIndex: z.int(),
  label: z.nullable(z.string()),
  lastReceived: z.nullable(epoch),
  isHidden: z.boolean(),
  channels: z.array(ChannelSchema),
});
export type ChannelGroup = z.infer<typeof ChannelGroupSchema>;

export const SensorSchema = z.object({
  macAddress: z.string(),
  /** The key of the sensor's first channel group (the spec's Sensor.channelKey). */
  channelKey: z.string(),
  kind: z.enum(["base", "wireless", "wired", "other"]),
  sensorType: z.nullable(z.string()),
  label: z.nullable(z.string()),
  isHub: z.boolean(),
  battery: z.nullable(z.int()),
  pluggedIn: z.boolean(),
  batteryAlertTriggered: z.boolean(),
  /** dBm; null for wired units. */
  signal: z.nullable(z.int()),
  lastReceived: z.nullable(epoch),
  channelGroups: z.array(ChannelGroupSchema),
});
export type Sensor = z.infer<typeof SensorSchema>;

/**
 * The spec's Device fields plus latestFirmware, model and imageUrl. A public answer (by the
 * public page hash) leaves out what only the owner should see: ethIp, wlanIp, wifiName and
 * httpPort are null and isHttps false (LAN addresses and the open-interface action), linkId
 * is null (the link page is signed-in; isLinkConnected and linkName stay), geocode is null
 * (the location text stays), and hidden channel groups are not listed.
 */
export const DeviceGeneralSchema = z.object({
  id: z.int(),
  name: z.string(),
  location: z.nullable(z.string()),
  type: z.string(),
  deviceType: z.string(),
  tagList: z.array(TagRefSchema),
  publicPageHash: z.nullable(z.string()),
  uptime: z.int(),
  pushStatus: z.int(),
  pushInterval: z.int(),
  isLinkConnected: z.boolean(),
  linkId: z.nullable(z.int()),
  linkName: z.nullable(z.string()),
  ethIp: z.nullable(z.string()),
  wlanIp: z.nullable(z.string()),
  wifiName: z.nullable(z.string()),
  isHttps: z.boolean(),
  httpPort: z.nullable(z.int()),
  macAddress: z.string(),
  serialnumber: z.string(),
  firmware: z.nullable(z.string()),
  latestFirmware: z.nullable(z.string()),
  model: z.nullable(z.string()),
  imageUrl: z.nullable(z.string()),
  warrantyEndDate: z.nullable(epoch),
  lastMessageTimestamp: z.nullable(epoch),
  deviceAssignmentStartDate: z.nullable(epoch),
  isSuspended: z.boolean(),
  capacityJson: z.nullable(z.record(z.string(), z.unknown())),
  geocode: z.nullable(GeocodeSchema),
});
export type DeviceGeneral = z.infer<typeof DeviceGeneralSchema>;

export const DeviceDetailsSchema = z.object({ general: DeviceGeneralSchema, sensors: z.array(SensorSchema) });
export type DeviceDetails = z.infer<typeof DeviceDetailsSchema>;

export const getDeviceDetails = endpoint({
  method: "get",
  path: "/api/v1/device-data/device-details/:deviceId",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ device: DeviceDetailsSchema }),
  summary: "A device of the active subscription with its sensors, channel groups and latest readings.",
});

export const getPublicDeviceDetails = endpoint({
  method: "get",
  path: PUBLIC_API.device,
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ device: DeviceDetailsSchema }),
  summary:
    "A device by its public page hash, without what only the owner sees (LAN addresses, Wi-Fi name, open-interface port, link, coordinates, hidden sensors). 404 once the link is deleted or regenerated, or when the plan has no public URL feature.",
});

export const DEVICE_NAME_RULE = "Device name must be between 1 and 100 characters long.";
export const DEVICE_NAME_LINE = "A device name is one line of text, without control characters.";
export const updateDevice = endpoint({
  method: "patch",
  path: "/api/v1/device-data/update-device/:deviceId",
  host: "api",
  body: "json",
  request: z.strictObject({
    name: z
      .string({ error: DEVICE_NAME_RULE })
      .check(
        z.trim(),
        z.minLength(1, DEVICE_NAME_RULE),
        z.maxLength(100, DEVICE_NAME_RULE),
        z.refine(isOneLine, DEVICE_NAME_LINE),
      ),
  }),
  response: z.object({ id: z.int(), name: z.string() }),
  summary: "Renames a device (trimmed, 1 to 100 characters).",
});

export const LABEL_TOO_LONG = "Label must be 50 characters or fewer.";
export const LABEL_CONTROL = "Label must not contain control characters.";
export const ADJUST_RULE = "Adjustment must be a number from -100 to 100.";
export const updateSensor = endpoint({
  method: "patch",
  path: "/api/v1/device-data/update-sensor/",
  host: "api",
  body: "json",
  request: z.strictObject({
    /** The channel group's key (device_sensor_groupType_groupIndex). */
    channelKey: z.string().check(z.refine((k) => parseGroupKey(k) !== null, groupKeyMessage)),
    channels: orDefault(
      z
        .array(
          z.strictObject({
            channelKey: channelKeyField,
            /** Celsius for temperatures; only adjustable kinds may be non-zero. */
            adjust: z
              .number({ error: ADJUST_RULE })
              .check(z.minimum(-MAX_ADJUSTMENT, ADJUST_RULE), z.maximum(MAX_ADJUSTMENT, ADJUST_RULE)),
          }),
        )
        .check(z.maxLength(64)),
      [],
    ),
    /** Trimmed; empty clears the label. */
    label: z.optional(
      z.string({ error: LABEL_TOO_LONG }).check(
        z.trim(),
        z.maxLength(LABEL_MAX, LABEL_TOO_LONG),
        z.refine((l) => !/\p{Cc}/u.test(l), LABEL_CONTROL),
      ),
    ),
    isHidden: z.optional(z.boolean()),
  }),
  response: z.object({ channelGroup: ChannelGroupSchema }),
  summary:
    "Saves a sensor's label, hidden flag and channel adjustments (Celsius; temperature, humidity, heat index, dew point, voltage and computed analog channels only); empty channels for hide/show.",
});

const PublicLinkSchema = z.object({
  /** The full public page path (/p/device/{hash} or /public/device/{hash}); null after delete. */
  publicLink: z.nullable(z.string()),
  publicPageHash: z.nullable(z.string()),
});

export const createPublicLink = endpoint({
  method: "post",
  path: "/api/v1/device-data/public-link/:deviceId",
  host: "api",
  body: "none",
  request: undefined,
  response: PublicLinkSchema,
  summary:
    "Creates the device's public link, or regenerates it (a new 256-bit token; the old page fails at once). Needs the plan's public URL feature.",
});

export const deletePublicLink = endpoint({
  method: "delete",
  path: "/api/v1/device-data/public-link/:deviceId",
  host: "api",
  body: "none",
  request: undefined,
  response: PublicLinkSchema,
  summary: "Deletes the device's public link; its page fails at once.",
});

const coordinate = (field: string, limit: number) =>
  z.optional(
    z.string().check(
      z.trim(),
      z.refine(
        (v) => v === "" || (/^-?\d{1,3}(\.\d{1,12})?$/.test(v) && Math.abs(Number(v)) <= limit),
        `${field} must be a number from -${limit} to ${limit}.`,
      ),
    ),
  );
export const LOCATION_TOO_LONG = "Location must be 200 characters or fewer.";
export const changeDeviceLocation = endpoint({
  method: "post",
  path: "/devices/data/change-device-location",
  host: "web",
  body: "form",
  request: z.object({
    id: z
      .string({ error: ID_RANGE })
      .check(z.refine((v) => /^\d{1,10}$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_ID, ID_RANGE)),
    location: z.optional(
      z.string().check(
        z.trim(),
        z.maxLength(200, LOCATION_TOO_LONG),
        z.refine((l) => !/\p{Cc}/u.test(l), "Location must not contain control characters."),
      ),
    ),
    lat: coordinate("Latitude", 90),
    lng: coordinate("Longitude", 180),
  }),
  response: z.object({ id: z.int(), location: z.nullable(z.string()), geocode: z.nullable(GeocodeSchema) }),
  summary:
    "Sets a device's location text and/or coordinates (multipart or form): 'Either location or coordinates (lat/lng) must be provided'.",
});

export const DeviceListItemSchema = z.object({
  id: z.int(),
  name: z.string(),
  type: z.string(),
  deviceType: z.string(),
  tagList: z.array(TagRefSchema),
  location: z.nullable(z.string()),
  geocode: z.nullable(GeocodeSchema),
  lastMessageTimestamp: z.nullable(epoch),
  pushInterval: z.int(),
  /** src/domain/device.ts deviceStatus at the time of the answer. */
  status: z.enum(["pushing", "late", "offline"]),
});
export type DeviceListItem = z.infer<typeof DeviceListItemSchema>;

export const listDevices = endpoint({
  method: "get",
  path: "/api/v1/devices",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ deviceList: z.array(DeviceListItemSchema) }),
  summary: "The active subscription's devices, by name, with tags, location, last push and status.",
});
