import { map } from "nanostores";
import { getShipmentList, getTrackingDetails, type Shipment } from "../api/shipments.ts";
import type { ResponseOf } from "../api/endpoint.ts";
import { call } from "./http.ts";

export const SHIPMENT_INFO_UNAVAILABLE = "Shipment info currently unavailable.";
export const SHIPMENT_LIST_FAILED = "Unexpected Error retrieving shipment details.";

export type TrackingDetails = ResponseOf<typeof getTrackingDetails>["trackingDetails"];

/** The Shipment Details dialog of an order page, and the page's banner when the list fails. */
export interface ShipmentDialogState {
  open: boolean;
  trackingNumber: string;
  shipment: Shipment | null;
  tracking: TrackingDetails | null;
  loading: boolean;
  /** 'Shipment info currently unavailable.' inside the dialog. */
  trackingFailed: boolean;
  /** 'Unexpected Error retrieving shipment details.' banner on the page. */
  listFailed: boolean;
}

const CLOSED: ShipmentDialogState = {
  open: false,
  trackingNumber: "",
  shipment: null,
  tracking: null,
  loading: false,
  trackingFailed: false,
  listFailed: false,
};
export const $shipmentDialog = map<ShipmentDialogState>(CLOSED);

/** The order's shipments, fetched once per order reference. */
const lists = new Map<string, Promise<Shipment[]>>();
function shipmentsOf(ref: string): Promise<Shipment[]> {
  let list = lists.get(ref);
  if (!list) {
    list = call(getShipmentList, undefined, { ref }).then((d) => d.shipmentList);
    // A failed list is fetched again next time.
    list.catch(() => lists.delete(ref));
    lists.set(ref, list);
  }
  return list;
}

/** Opens the dialog for one tracking number and loads its shipment and carrier activity. */
export async function openShipment(ref: string, trackingNumber: string) {
  $shipmentDialog.set({ ...CLOSED, open: true, trackingNumber, loading: true });
  const [list, tracking] = await Promise.allSettled([
    shipmentsOf(ref),
    call(getTrackingDetails, undefined, { trackingNumber }),
  ]);
  // A newer opening (another tracking number) owns the dialog now.
  if ($shipmentDialog.get().trackingNumber !== trackingNumber) return;
  const shipment =
    list.status === "fulfilled"
      ? (list.value.find((s) => s.trackingNumber === trackingNumber) ?? null)
      : null;
  $shipmentDialog.set({
    ...$shipmentDialog.get(),
    loading: false,
    shipment,
    tracking: tracking.status === "fulfilled" ? tracking.value.trackingDetails : null,
    trackingFailed: tracking.status === "rejected",
    listFailed: list.status === "rejected",
  });
}

export function closeShipment() {
  $shipmentDialog.setKey("open", false);
}

export function dismissListError() {
  $shipmentDialog.setKey("listFailed", false);
}
