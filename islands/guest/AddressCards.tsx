import { useStore } from "@nanostores/react";
import { useId } from "react";
import type { Address } from "../../src/api/records.ts";
import { $countries, countryName } from "../../src/stores/countries.ts";

const NO_ADDRESS = "No Address";

/** One address as its label would be written; 'No Address' when the record has none. */
function AddressCard({ title, address }: { title: string; address: Address | null }) {
  const countries = useStore($countries);
  const id = useId();
  const lines = address
    ? [
        address.companyName,
        address.contactName,
        address.attention && `Attn: ${address.attention}`,
        address.line1,
        address.line2,
        [address.city, [address.state, address.zipCode].filter(Boolean).join(" ")].filter(Boolean).join(", "),
        countryName(address, countries),
        address.phoneNumber,
      ].filter((line): line is string => Boolean(line))
    : [];
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
