import type { Shipment } from "../../src/api/shipments.ts";
import { trackShipment } from "../../src/stores/accountOrders.ts";
import { Day } from "../guest/Day.tsx";
import { ShipmentsSection } from "../guest/Shipments.tsx";
import ShipmentDetails from "../shipments/ShipmentDetails.tsx";

/**
 * An order's shipments with a Track action each, which opens the public page's shipment
 * dialog under the spec's name for it here, 'Track shipment'; the spec's banner text when the list did not load.
 */
export function OrderShipments({ shipments }: { shipments: Shipment[] | null }) {
  return (
    <ShipmentsSection
      shipments={shipments}
      render={(list) => (
        <table className="stack-table">
          <caption className="visually-hidden">Shipments of this order</caption>
          <thead>
            <tr>
              <th scope="col">Shipped</th>
              <th scope="col">Carrier</th>
              <th scope="col">Tracking Number</th>
              <th scope="col">Items</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((s) => (
              <tr key={s.id}>
                <td data-label="Shipped">{s.shippedAt ? <Day at={s.shippedAt} /> : "-"}</td>
                <td data-label="Carrier">
                  {s.carrier} {s.shipMethod}
                </td>
                <td data-label="Tracking Number">
                  <span className="tracking">{s.trackingNumber}</span>
                </td>
                <td data-label="Items">{s.shipmentItems.reduce((n, i) => n + i.quantity, 0)}</td>
                <td data-label="Status">{s.isDelivered ? "Delivered" : "In transit"}</td>
                <td>
                  <button type="button" className="outline small" onClick={() => void trackShipment(s)}>
                    Track<span className="visually-hidden"> shipment {s.trackingNumber}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    >
      <ShipmentDetails title="Track shipment" />
    </ShipmentsSection>
  );
}
