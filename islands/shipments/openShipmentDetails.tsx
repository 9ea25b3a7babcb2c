import { createRoot, type Root } from "react-dom/client";
import { openShipment } from "../../src/stores/shipments.ts";
import ShipmentDetails from "./ShipmentDetails.tsx";

let root: Root | null = null;

/**
 * Mounts the Shipment Details dialog the first time a tracking number is pressed (this module
 * is the chunk the order page loads then) and opens it for that number.
 */
export function openShipmentDetails(ref: string, trackingNumber: string) {
  if (!root) {
    const host = document.getElementById("shipment-details");
    if (!host) throw new Error("The page has no #shipment-details");
    root = createRoot(host);
    root.render(<ShipmentDetails />);
  }
  void openShipment(ref, trackingNumber);
}
