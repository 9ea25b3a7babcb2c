import { useState, type ReactNode } from "react";
import type { Shipment } from "../../src/api/shipments.ts";
import { SHIPMENT_LIST_FAILED } from "../../src/stores/shipments.ts";
import { ErrorBanner } from "../ui/ErrorBanner.tsx";
import { Day } from "./Day.tsx";
import { Fact, Facts } from "./Facts.tsx";

function ShipmentCard({ shipment, title }: { shipment: Shipment; title: string }) {
  return (
    <article className="shipment">
      <h3>{title}</h3>
      <Facts>
        <Fact name="Shipped">{shipment.shippedAt ? <Day at={shipment.shippedAt} /> : "-"}</Fact>
        <Fact name="Carrier">{shipment.carrier}</Fact>
        <Fact name="Method">{shipment.shipMethod}</Fact>
        <Fact name="Tracking Number">
          <span className="tracking">{shipment.trackingNumber}</span>
        </Fact>
        <Fact name="Status">{shipment.isDelivered ? "Delivered" : "In transit"}</Fact>
      </Facts>
      <ul aria-label="Items in this shipment">
        {shipment.shipmentItems.map((item, i) => (
          <li key={i}>
            {item.quantity} × {item.productNumber} {item.description}
          </li>
        ))}
      </ul>
    </article>
  );
}

/**
 * An order's Shipments section: the spec's banner when their list did not load (dismissible),
 * a note when nothing has shipped, else what `render` makes of the list.
 */
export function ShipmentsSection({
  shipments,
  render,
  children,
}: {
  shipments: Shipment[] | null;
  render: (list: Shipment[]) => ReactNode;
  children?: ReactNode;
}) {
  const [dismissed, setDismissed] = useState(false);
  return (
    <section aria-labelledby="shipments-heading">
      <h2 id="shipments-heading">Shipments</h2>
      {shipments === null ? (
        !dismissed && <ErrorBanner message={SHIPMENT_LIST_FAILED} onDismiss={() => setDismissed(true)} />
      ) : shipments.length === 0 ? (
        <p className="muted">Nothing has shipped yet.</p>
      ) : (
        render(shipments)
      )}
      {children}
    </section>
  );
}

/** An order's shipments as cards, or the spec's banner when their list did not load. */
export function Shipments({ shipments }: { shipments: Shipment[] | null }) {
  return (
    <ShipmentsSection
      shipments={shipments}
      render={(list) =>
        list.map((s, i) => (
          <ShipmentCard key={s.id} shipment={s} title={`Shipment ${i + 1} of ${list.length}`} />
        ))
      }
    />
  );
}
