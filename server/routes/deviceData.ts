import { Hono, type Context } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { channelsOfDevice } from "../data/channels.ts";
import { csvStream } from "../data/csvExport.ts";
import { relocateDevice } from "../data/deviceEdits.ts";
import { deviceById } from "../data/devices.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { idParam, inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { audited, byUser, record } from "../flows/audited.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { LOCATION_REQUIRED, locationUpdate } from "../../src/domain/location.ts";
import { dataRange, PLAN_MESSAGES, planAllows } from "../../src/domain/plan.ts";
import { downloadDeviceData } from "../../src/api/deviceData.ts";
import { changeDeviceLocation } from "../../src/api/devices.ts";
import { csvFileName } from "../http/csvFileName.ts";
import { refuseCrossSiteRead } from "../http/origin.ts";

export const BOTH_COORDINATES = "Enter both latitude and longitude.";

/** The web host's device calls: the location form and the data download. */
export function deviceDataRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono()
    .post(changeDeviceLocation.path, guard(changeDeviceLocation, deps), async (c) => {
      const input = await inputOf(c, changeDeviceLocation);
      const device = await deviceById(db, Number(input.id));
      if (!device) throw new ApiError(404, NOT_FOUND);
      inSubscription(authOf(c), device);
      const lat = input.lat ? Number(input.lat) : null;
      const lng = input.lng ? Number(input.lng) : null;
      if ((lat === null) !== (lng === null))
        throw new ApiError(400, [{ field: lat === null ? "lat" : "lng", message: BOTH_COORDINATES }]);
      const update = locationUpdate({ location: input.location ?? null, lat, lng });
      if (!update.ok) throw new ApiError(400, [{ field: "location", message: LOCATION_REQUIRED }]);
      const moved = await audited(
        deps,
        (tx) => relocateDevice(tx, device.id, update),
        (after) => ({
          ...byUser(authOf(c)),
          action: "device.location",
          entityType: EntityType.DEVICE,
          entityId: device.id,
          deviceId: device.id,
          before: { location: device.location, geocode: device.geocode },
          after: { location: after.location, geocode: after.geocode },
        }),
      );
      return reply(c, changeDeviceLocation, moved);
    })
    .get(downloadDeviceData.path, guard(downloadDeviceData, deps), async (c) => {
      // It records a row in the person's name: never for another site's link.
      refuseCrossSiteRead(c);
      const device = await deviceById(db, idParam(c, "deviceId"));
      if (!device) throw new ApiError(404, NOT_FOUND);
      const auth = authOf(c);
      inSubscription(auth, device);
      if (!planAllows(auth.subscription.features, "csvExport"))
        throw new ApiError(403, PLAN_MESSAGES.csvExport);
      const query = await inputOf(c, downloadDeviceData);
      const range = dataRange(
        auth.subscription.limits,
        { start: secondsOrNull(query.startTime), end: secondsOrNull(query.endTime) },
        epochSeconds(now().getTime() / 1000),
      );
      if (!range.ok)
        throw new ApiError(range.status, [
          { field: range.status === 400 ? "startTime" : null, message: range.message },
        ]);
      const channels = await channelsOfDevice(db, device.id);
      const start = new Date(range.start * 1000);
      const end = new Date(range.end * 1000);
      await record(deps, {
        ...byUser(auth),
        action: "device.download",
        entityType: EntityType.DEVICE,
        entityId: device.id,
        deviceId: device.id,
        after: { from: start.toISOString(), to: end.toISOString() },
      });
      const columns = channels.map((ch) => ({
        channelId: ch.channelId,
        kind: ch.kind,
        adjust: ch.adjust,
        title: ch.entry.name,
        units: ch.units,
      }));
      return csvResponse(c, csvStream(db, { columns, start, end, scale: auth.user.temperatureScale }), {
        name: device.name,
        start,
        end,
      });
    });
}

const secondsOrNull = (iso: string | undefined) =>
  iso === undefined ? null : Math.floor(Date.parse(iso) / 1000);

/** The stream as a download: CSV, a file name for the person, never cached. */
function csvResponse(
  c: Context,
  body: ReadableStream<Uint8Array>,
  file: { name: string; start: Date; end: Date },
) {
  return c.body(body, 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": csvFileName(file),
    "cache-control": "no-store",
  });
}
