import { sql } from "drizzle-orm";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { subscriptions } from "./accounts.ts";
import { createdAt, tz } from "./helpers.ts";

export const tags = pgTable(
  "tags",
  {
    id: serial("id").primaryKey(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: text("type").notNull().default("user-defined"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("tags_sub_name").on(t.subscriptionId, sql`lower(${t.name})`)],
);

/** Tag to entity, entityType from the spec's enumeration (DEVICE 3, ALERT 1, ...). */
export const entityTags = pgTable(
  "entity_tags",
  {
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    entityType: integer("entity_type").notNull(),
    entityId: integer("entity_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tagId, t.entityType, t.entityId] }),
    index("entity_tags_entity").on(t.entityType, t.entityId),
  ],
);

export const links = pgTable("links", {
  id: serial("id").primaryKey(),
  subscriptionId: integer("subscription_id")
    .notNull()
    .references(() => subscriptions.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
});

export const devices = pgTable(
  "devices",
  {
    id: serial("id").primaryKey(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    location: text("location"),
    geocode: jsonb("geocode").$type<{ lat: number; lng: number } | null>(),
    type: text("type").notNull(),
    deviceType: text("device_type").notNull(),
    /** Unguessable public page token; null when the public link is off. */
    publicPageHash: text("public_page_hash").unique(),
    uptime: integer("uptime").notNull().default(0),
    pushStatus: integer("push_status").notNull().default(0),
    pushInterval: integer("push_interval").notNull().default(600),
    linkId: integer("link_id").references(() => links.id, { onDelete: "set null" }),
    ethIp: text("eth_ip"),
    wlanIp: text("wlan_ip"),
    wifiName: text("wifi_name"),
    isHttps: boolean("is_https").notNull().default(false),
    httpPort: integer("http_port"),
    macAddress: text("mac_address").notNull().unique(),
    serialnumber: text("serialnumber").notNull(),
    firmware: text("firmware"),
    latestFirmware: text("latest_firmware"),
    model: text("model"),
    imageUrl: text("image_url"),
    warrantyEndDate: tz("warranty_end_date"),
    lastMessageAt: tz("last_message_at"),
    assignmentStartAt: tz("assignment_start_at"),
    isSuspended: boolean("is_suspended").notNull().default(false),
    /** Maintenance: until then its alarms are kept but nobody is notified (issue 34). */
    alertsMutedUntil: tz("alerts_muted_until"),
    capacityJson: jsonb("capacity_json").$type<Record<string, unknown>>(),
    /** sha256 of the device's push key (Authorization: Device {key}). */
    ingestKeyHash: text("ingest_key_hash").notNull(),
    /**
     * How far its channels' coarser rollups are folded from the finest level (data/rollupFold.ts):
     * a 900/3600/10800 s bucket holds the 300 s buckets that start before this time, and readers
     * add the rest. A push stores its readings' finest buckets only, unless they start before it.
     */
    rolledUntil: tz("rolled_until").notNull().defaultNow(),
    /**
     * Counts changes to the device's MAC, sensors, channel groups and channels (triggers of
     * migration 0027): a push checked against a remembered copy of them is stored only if the
     * count under the device's row lock is still the copy's (server/data/ingestLookup.ts).
     */
    shapeVersion: integer("shape_version").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("devices_subscription").on(t.subscriptionId),
    /** The fold job's work list: the devices folded least far. */
    index("devices_rolled_until").on(t.rolledUntil),
  ],
);

/** A base station, wireless sensor, wired adapter or other unit attached to a device. */
export const sensors = pgTable(
  "sensors",
  {
    id: serial("id").primaryKey(),
    deviceId: integer("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    macAddress: text("mac_address").notNull(),
    kind: text("kind").notNull(),
    sensorType: text("sensor_type"),
    label: text("label"),
    isHub: boolean("is_hub").notNull().default(false),
    battery: integer("battery"),
    pluggedIn: boolean("plugged_in").notNull().default(false),
    batteryAlertTriggered: boolean("battery_alert_triggered").notNull().default(false),
    signal: integer("signal"),
    lastReceivedAt: tz("last_received_at"),
  },
  (t) => [uniqueIndex("sensors_device_mac").on(t.deviceId, t.macAddress)],
);

export const channelGroups = pgTable(
  "channel_groups",
  {
    id: serial("id").primaryKey(),
    sensorId: integer("sensor_id")
      .notNull()
      .references(() => sensors.id, { onDelete: "cascade" }),
    channelKey: text("channel_key").notNull().unique(),
    groupType: integer("group_type").notNull(),
    groupIndex: integer("group_index").notNull(),
    label: text("label"),
    isHidden: boolean("is_hidden").notNull().default(false),
    lastReceivedAt: tz("last_received_at"),
  },
  (t) => [index("channel_groups_sensor").on(t.sensorId)],
);

export const channels = pgTable(
  "channels",
  {
    id: serial("id").primaryKey(),
    channelGroupId: integer("channel_group_id")
      .notNull()
      .references(() => channelGroups.id, { onDelete: "cascade" }),
    channelKey: text("channel_key").notNull().unique(),
    channelType: integer("channel_type").notNull(),
    channelIndex: integer("channel_index"),
    /** temperature, humidity, dew_point, heat_index, voltage, computed_analog, ... */
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    /** The latest reading; temperatures in Celsius. */
    value: doublePrecision("value"),
    /** When `value` was read: a push of older readings leaves it alone (a late push never sets it back). */
    valueAt: tz("value_at"),
    adjust: doublePrecision("adjust").notNull().default(0),
    conversionType: text("conversion_type"),
    units: text("units"),
  },
  (t) => [index("channels_group").on(t.channelGroupId)],
);

/**
 * Narrow sample table; the primary key serves range scans per channel. In the database it is
 * partitioned by month of `time` (migration 0009, server/data/partitions.ts): drizzle and
 * drizzle-kit see one table with these columns and keys, which is what every query needs.
 */
export const samples = pgTable(
  "samples",
  {
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    time: tz("time").notNull(),
    value: doublePrecision("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.time] })],
);
