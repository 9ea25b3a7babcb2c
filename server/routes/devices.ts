import { Hono, type Context } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { channelHistory, channelByKey, channelsOfDevice } from "../data/channels.ts";
import { renameDevice, setPublicHash } from "../data/deviceEdits.ts";
import { announceDevice } from "../data/liveNotify.ts";
import { deviceById, deviceGeneral, deviceList } from "../data/devices.ts";
import { saveSensorSettings } from "../data/sensorSettings.ts";
import { groupByKey, groupOf, sensorsOfDevice } from "../data/sensors.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { idParam, inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { audited, userActor } from "../flows/audited.ts";
import type { GroupRecord } from "../data/sensors.ts";
import { publicDevicePath } from "../../src/domain/device.ts";
import { dataRange, PLAN_MESSAGES, planAllows } from "../../src/domain/plan.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { getChannelHistory, getChannelList } from "../../src/api/deviceData.ts";
import {
  createPublicLink,
  deletePublicLink,
  getDeviceDetails,
  listDevices,
  updateDevice,
  updateSensor,
} from "../../src/api/devices.ts";

/** The device of the `:deviceId` path in the caller's subscription; else 404 (the role is the route's guard's). */
async function ownDevice(c: Context, deps: Deps) {
  const device = await deviceById(deps.db, idParam(c, "deviceId"));
  if (!device) throw new ApiError(404, NOT_FOUND);
  inSubscription(authOf(c), device);
  return device;
}

/** The signed-in device pages' calls: details, list, rename, sensor settings, public link, channels. */
export function deviceRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono()
    .get(listDevices.path, guard(listDevices, deps), async (c) =>
      reply(c, listDevices, { deviceList: await deviceList(db, authOf(c).subscription.id, now()) }),
    )
    .get(getDeviceDetails.path, guard(getDeviceDetails, deps), async (c) => {
      const device = await ownDevice(c, deps);
      return reply(c, getDeviceDetails, {
        device: {
          general: await deviceGeneral(db, device, "owner"),
          sensors: await sensorsOfDevice(db, device.id, "owner"),
        },
      });
    })
    .patch(updateDevice.path, guard(updateDevice, deps), async (c) => {
      const device = await ownDevice(c, deps);
      const { name } = await inputOf(c, updateDevice);
      const renamed = await audited(deps, (tx) => renameDevice(tx, device.id, name), {
        subscriptionId: device.subscriptionId,
        actor: userActor(authOf(c)),
        action: "device.rename",
        entityType: EntityType.DEVICE,
        entityId: device.id,
        deviceId: device.id,
        before: { name: device.name },
        after: { name },
      });
      return reply(c, updateDevice, renamed);
    })
    .patch(updateSensor.path, guard(updateSensor, deps), async (c) => {
      const input = await inputOf(c, updateSensor);
      const record = await groupByKey(db, input.channelKey);
      if (!record) throw new ApiError(404, NOT_FOUND);
      inSubscription(authOf(c), record);
      const saved = await audited(
        deps,
        (tx) => saveSensorSettings(tx, record, input),
        (after) => ({
          subscriptionId: record.subscriptionId,
          actor: userActor(authOf(c)),
          action: "sensor.update",
          entityType: EntityType.DATAGROUP,
          entityId: record.group.channelKey,
          deviceId: record.deviceId,
          // Named as its card was before the change (a new label shows as the label's change).
          before: { name: sensorTitle(record), ...sensorValues(record) },
          after: { name: sensorTitle(record), ...sensorValues(after) },
        }),
      );
      return reply(c, updateSensor, { channelGroup: groupOf(saved.group, saved.channels) });
    })
    .post(createPublicLink.path, guard(createPublicLink, deps), async (c) => {
      const device = await ownDevice(c, deps);
      if (!planAllows(authOf(c).subscription.features, "publicUrl"))
        throw new ApiError(403, PLAN_MESSAGES.publicUrl);
      const hash = (await audited(deps, (tx) => setPublicHash(tx, device.id, true), {
        ...linkEntry(c, device),
        action: device.publicPageHash ? "device.link.replace" : "device.link.create",
        before: { publicLink: device.publicPageHash ? "on" : "off" },
        after: { publicLink: device.publicPageHash ? "replaced" : "on" },
      }))!;
      // Open public pages of the old link are told at once (their watch is re-checked).
      await announceDevice(db, device.id, deps.now());
      return reply(c, createPublicLink, {
        publicLink: publicDevicePath(device.deviceType, hash),
        publicPageHash: hash,
      });
    })
    .delete(deletePublicLink.path, guard(deletePublicLink, deps), async (c) => {
      const device = await ownDevice(c, deps);
      await audited(deps, (tx) => setPublicHash(tx, device.id, false), {
        ...linkEntry(c, device),
        action: "device.link.delete",
        before: { publicLink: device.publicPageHash ? "on" : "off" },
        after: { publicLink: "off" },
      });
      await announceDevice(db, device.id, deps.now());
      return reply(c, deletePublicLink, { publicLink: null, publicPageHash: null });
    })
    .get(getChannelList.path, guard(getChannelList, deps), async (c) => {
      const device = await ownDevice(c, deps);
      const found = await channelsOfDevice(db, device.id);
      return reply(c, getChannelList, { channelList: found.map((ch) => ch.entry) });
    })
    .get(getChannelHistory.path, guard(getChannelHistory, deps), async (c) => {
      const channel = await channelByKey(db, c.req.param("channelKey") ?? "");
      if (!channel) throw new ApiError(404, NOT_FOUND);
      const auth = authOf(c);
      inSubscription(auth, channel);
      const query = await inputOf(c, getChannelHistory);
      const range = dataRange(
        auth.subscription.limits,
        { start: numberOrNull(query.start), end: numberOrNull(query.end) },
        epochSeconds(now().getTime() / 1000),
      );
      if (!range.ok)
        throw new ApiError(range.status, [
          { field: range.status === 400 ? "start" : null, message: range.message },
        ]);
      const { start, end } = range;
      const history = await channelHistory(db, channel, start, end);
      return reply(c, getChannelHistory, {
        channel: channel.entry,
        deviceId: channel.deviceId,
        deviceName: channel.deviceName,
        start,
        end,
        ...history,
      });
    });
}

/** A sensor's settings as the trail shows them: label, hidden, each channel's adjustment. */
/** The sensor as its card names it: the group's label, else the sensor's label or type, else its address. */
const sensorTitle = (r: GroupRecord) =>
  r.group.label || r.sensor.label || r.sensor.sensorType || r.sensor.macAddress;

const sensorValues = (r: GroupRecord) => ({
  label: r.group.label ?? null,
  isHidden: r.group.isHidden,
  ...Object.fromEntries(r.channels.map((ch) => [`adjust ${ch.kind}`, ch.adjust])),
});

/** Who changed which device's public link (the token itself is never recorded). */
const linkEntry = (c: Context, device: { id: number; subscriptionId: number | null }) => ({
  subscriptionId: device.subscriptionId,
  actor: userActor(authOf(c)),
  entityType: EntityType.DEVICE,
  entityId: device.id,
  deviceId: device.id,
});

const numberOrNull = (text: string | undefined) => (text === undefined ? null : Number(text));
