import type { DeviceDetails } from "../api/devices.ts";
import { PUBLIC_API } from "../api/paths.ts";
import { epochSeconds, type EpochSeconds } from "../domain/brand.ts";
import { dashboard, isRamax, temperatureView } from "../domain/dashboard.ts";
import { visitorZone } from "../domain/dayText.ts";
import { deviceStatus, usesPublicDeviceRoute } from "../domain/device.ts";
import { DEVICE_LOAD_FAILED, infoRows, NO_DEVICE_ID, STATUS_BADGE } from "../domain/deviceView.ts";
import { PUBLIC_SCALE, renderDashboard, renderInfo } from "./deviceRender.ts";
import { badge, element, field, fill, painted } from "./paint.ts";
import { getPublic, lastSegment } from "./publicData.ts";

/*
 * The public device page (/p/device/{hash}, /public/device/{hash}): a spinner, then the
 * device read-only, or the error view. Painted without a framework (the order card's way);
 * live readings follow once it is on screen.
 */

const card = document.getElementById("device-card")!;
const spinner = document.getElementById("device-loading")!;
const problem = document.getElementById("device-error")!;

function paintHeader(d: DeviceDetails["general"]) {
  fill(card, "name", d.name);
  document.title = `${d.name} · Device Portal`;
  fill(card, "type", d.deviceType);
  fill(card, "location", d.location ?? "No location");
  field(card, "tags").replaceChildren(
    ...(d.tagList.length ? d.tagList.map((t) => element("li", t.name)) : [element("li", "No tags", "muted")]),
  );
}

/** The device's picture (max height 250px in device.css), named by its model. */
function paintImage(d: DeviceDetails["general"]) {
  const image = element("img", undefined, "device-image");
  image.src = d.imageUrl ?? "";
  image.alt = d.model ?? d.deviceType;
  field(card, "image").replaceChildren(...(d.imageUrl ? [image] : []));
}

/** Draws what a push changes: the status, the info panel and the dashboard. */
function paintLive(device: DeviceDetails) {
  const { general, sensors } = device;
  const now = epochSeconds(Date.now() / 1000);
  const zone = visitorZone();
  badge(
    card,
    "status",
    STATUS_BADGE[
      deviceStatus(general.lastMessageTimestamp as EpochSeconds | null, general.pushInterval, now)
    ],
  );
  fill(card, "zone", zone);
  renderInfo(field(card, "info"), infoRows(general, zone, now));
  const ramax = isRamax(general.deviceType);
  renderDashboard(field(card, "dashboard"), {
    ramax,
    sections: dashboard(sensors, PUBLIC_SCALE, now, ramax, usesPublicDeviceRoute(general.deviceType)),
    temperatures: temperatureView(sensors, PUBLIC_SCALE, now),
  });
}

/** The error view in place of the spinner or the device (a deleted link fails an open page). */
function fail(message: string) {
  spinner.remove();
  card.hidden = true;
  fill(problem, "message", message);
  problem.hidden = false;
  problem.querySelector("button")!.addEventListener("click", () => location.reload());
  problem.focus();
  if (document.documentElement.dataset["painted"] !== "1") painted(card);
}

async function main() {
  const hash = lastSegment(location.pathname);
  // The shell's own address (/p/device/_) names no device.
  if (!hash || hash === "_") return fail(NO_DEVICE_ID);
  let device: DeviceDetails;
  try {
    ({ device } = await getPublic<{ device: DeviceDetails }>(PUBLIC_API.device, { publicPageHash: hash }));
  } catch {
    return fail(DEVICE_LOAD_FAILED);
  }
  if (location.pathname.startsWith("/p/") && usesPublicDeviceRoute(device.general.deviceType))
    return location.replace(`/public/device/${encodeURIComponent(hash)}${location.search}`);
  paintHeader(device.general);
  paintImage(device.general);
  paintLive(device);
  spinner.remove();
  card.hidden = false;
  painted(card);
  void follow(hash, device);
}

/** Live readings, loaded once the device shows: each push repaints what it changes. */
async function follow(hash: string, first: DeviceDetails) {
  const { mergeLive, watchDevice } = await import("../stores/live.ts");
  let device = first;
  watchDevice(
    { publicPageHash: hash },
    {
      onState(state) {
        device = mergeLive(device, state);
        paintLive(device);
      },
      onConnection(connection) {
        // Whether pushes reach the page now: a test (and a person's devtools) can wait for it.
        document.documentElement.dataset["live"] = connection.state === "live" ? "1" : "0";
        if (connection.state === "refused") fail(DEVICE_LOAD_FAILED);
      },
    },
  );
}

/** Runs the page: called once by its Astro page. */
export function showDevice() {
  void main();
}
