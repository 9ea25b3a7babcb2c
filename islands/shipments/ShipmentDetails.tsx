import { useStore } from "@nanostores/react";
import type { Shipment } from "../../src/api/shipments.ts";
import {
  $shipmentDialog,
  closeShipment,
  dismissListError,
  SHIPMENT_INFO_UNAVAILABLE,
  SHIPMENT_LIST_FAILED,
  type TrackingDetails,
} from "../../src/stores/shipments.ts";
import type { EpochSeconds } from "../../src/domain/brand.ts";
import { formatDate, formatTime, visitorZone } from "../../src/domain/dayText.ts";
import { Dialog } from "../ui/Dialog.tsx";
import { ErrorBanner } from "../ui/ErrorBanner.tsx";

const place = (...parts: (string | null)[]) => parts.filter(Boolean).join(", ") || "-";

/** The carrier's name for the service, after the carrier ("UPS Ground"). */
function methodOf(tracking: TrackingDetails | null, shipment: Shipment | null): string {
  const method = tracking?.method;
  const text = (Array.isArray(method) ? method.join(", ") : method) || shipment?.shipMethod || "";
  return [shipment?.carrier, text].filter(Boolean).join(" ") || "-";
}

/**
 * The shipment dialog of the public order page ('Shipment Details') and of the signed-in
 * order's Track action ('Track shipment'): one component, so both show the same facts laid
 * out the same way; and the page's banner when the shipment list fails.
 */
export default function ShipmentDetails({ title = "Shipment Details" }: { title?: string }) {
  const s = useStore($shipmentDialog);
  const signedFor = s.tracking?.activity.find((a) => a.signedForByName)?.signedForByName ?? "-";
  // The carrier's rows carry no zone of their own: times are shown in the visitor's zone,
  // as the order's timeline shows them.
  const zone = visitorZone();
  return (
    <>
      {s.listFailed && <ErrorBanner message={SHIPMENT_LIST_FAILED} onDismiss={dismissListError} />}
      <Dialog open={s.open} onClose={closeShipment} title={title}>
        {s.loading ? (
          <p aria-busy="true">Loading shipment details...</p>
        ) : (
          <>
            <dl className="facts pairs">
              <dt>Shipping Method</dt>
              <dd>{methodOf(s.tracking, s.shipment)}</dd>
              <dt>Tracking Number</dt>
              <dd className="tracking">{s.trackingNumber}</dd>
              <dt>Ship From</dt>
              <dd>
                {s.shipment
                  ? place(
                      s.shipment.distributionOrigin.shippingAddress.city,
                      s.shipment.distributionOrigin.shippingAddress.state,
                      s.shipment.distributionOrigin.shippingAddress.countryCode,
                    )
                  : "-"}
              </dd>
              <dt>Ship To</dt>
              <dd>
                {s.shipment
                  ? place(s.shipment.address.city, s.shipment.address.state, s.shipment.address.country)
                  : "-"}
              </dd>
              <dt>Signed For By</dt>
              <dd>{signedFor}</dd>
            </dl>
            {s.trackingFailed || !s.tracking ? (
              <p role="alert">{SHIPMENT_INFO_UNAVAILABLE}</p>
            ) : (
              <div className="table-scroll">
                <table className="activity-table">
                  <caption className="muted">
                    Carrier activity, newest first; times in your time zone, {zone}.
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Location</th>
                      <th scope="col">Date</th>
                      <th scope="col">Local Time</th>
                      <th scope="col">Activity</th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.tracking.activity.map((a, i) => (
                      // Explicit roles: the phone layout restyles the rows, which would drop their table semantics.
                      <tr key={i} role="row">
                        <td role="cell" data-label="Location">
                          {a.locationDescription}
                        </td>
                        <td role="cell" data-label="Date">
                          {formatDate(a.at as EpochSeconds, zone)}
                        </td>
                        <td role="cell" data-label="Local Time">
                          {formatTime(a.at as EpochSeconds, zone)}
                        </td>
                        <td role="cell" data-label="Activity">
                          {a.description}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </Dialog>
    </>
  );
}
