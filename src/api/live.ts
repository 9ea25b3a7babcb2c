import * as z from "zod/mini";
import { idField } from "./fields.ts";

/*
 * Live readings over a websocket on the websocket host (WS_ORIGIN; this origin when empty).
 * One socket watches one device: the client subscribes by device id (signed in, device.view
 * in the active subscription) or by the public page hash; the server answers with the
 * current state at once, again after every stored push, and a heartbeat in between.
 * Temperatures are in Celsius, times epoch seconds, as in the device details.
 */

export { HEARTBEAT_SECONDS, LIVE_PATH, REFUSED_CLOSE_BASE, socketOrigin, socketUrl } from "./liveSocket.ts";

/** Client → server: watch a device of the active subscription, or one by its public page hash. */
export const SubscribeSchema = z.union([
  z.strictObject({ type: z.literal("subscribe"), deviceId: idField }),
  z.strictObject({
    type: z.literal("subscribe"),
    publicPageHash: z.string().check(z.minLength(1), z.maxLength(200)),
  }),
]);
export type Subscribe = z.infer<typeof SubscribeSchema>;
export type LiveTarget = { deviceId: number } | { publicPageHash: string };

const epoch = z.int();

/** A sensor's live fields (battery, signal and plug change with pushes). */
export const LiveSensorSchema = z.object({
  macAddress: z.string(),
  battery: z.nullable(z.int()),
  signal: z.nullable(z.int()),
  pluggedIn: z.boolean(),
  lastReceived: z.nullable(epoch),
});

/** The device as a push changes it: what the device page shows live. */
export const LiveStateSchema = z.object({
  type: z.literal("state"),
  /** "subscribe": the state when (re)subscribing, which covers whatever a dropped socket missed. */
  cause: z.enum(["subscribe", "push"]),
  deviceId: z.int(),
  /** The server's clock (epoch seconds) when it built the message. */
  time: epoch,
  lastMessageTimestamp: z.nullable(epoch),
  pushStatus: z.int(),
  pushInterval: z.int(),
  uptime: z.int(),
  /** pushing, late or offline at `time` (src/domain/device.ts deviceStatus). */
  status: z.enum(["pushing", "late", "offline"]),
  /** The latest value of each channel by channel key, adjustment applied (Celsius for temperatures). */
  readings: z.record(z.string(), z.nullable(z.number())),
  /** Each channel group's last reading time by group key. */
  groups: z.record(z.string(), z.nullable(epoch)),
  sensors: z.array(LiveSensorSchema),
});
export type LiveState = z.infer<typeof LiveStateSchema>;

export const HeartbeatSchema = z.object({ type: z.literal("heartbeat"), time: epoch });

/** The subscription is refused or has ended (signed out, link deleted): 401, 403 or 404 as HTTP would. */
export const RefusedSchema = z.object({
  type: z.literal("refused"),
  status: z.int(),
  message: z.string(),
});

/** A message the server could not read; the socket stays open. */
export const ProblemSchema = z.object({ type: z.literal("error"), message: z.string() });

export const ServerMessageSchema = z.discriminatedUnion("type", [
  LiveStateSchema,
  HeartbeatSchema,
  RefusedSchema,
  ProblemSchema,
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;

export const NOT_JSON = "Messages must be JSON.";
export const BAD_SUBSCRIBE =
  'Send {"type":"subscribe","deviceId":n} or {"type":"subscribe","publicPageHash":"..."}.';
