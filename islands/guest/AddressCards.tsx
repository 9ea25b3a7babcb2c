import { useStore } from "@nanostores/react";
import { useId } from "react";
import type { Address } from "../../src/api/records.ts";
import { addressLines, NO_ADDRESS } from "../../src/domain/addressLines.ts";
import { $countries, countryName } from "../../src/stores/countries.ts";

/** One address as its label would be written; 'No Address' when the record has none. */
function AddressCard({ title, address }: { title: string; address: Address | null }) {
  const countries = useStore($countries);
  const id = useId();
  const lines = addressLines(address, address && countryName(address, countries));
  return (
    <section className="address-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {lines.length ? (
        <address>
          {lines.map((line, i) => (
            <span key={i}>{line}</span>
          ))}
        </address>
      ) : (
        <p className="muted">{NO_ADDRESS}</p>
      )}
    </section>
  );
}

/** The shipping and billing address cards of a quote or an order. */
export function AddressCards({ shipping, billing }: { shipping: Address | null; billing: Address | null }) {
  return (
    <div className="address-cards">
      <AddressCard title="Shipping Address" address={shipping} />
      <AddressCard title="Billing Address" address={billing} />
    </div>
  );
}
