import { useStore } from "@nanostores/react";
import { $addressDialog, chooseOption, refreshRates } from "../../../src/stores/quoteAddress.ts";

/**
 * The shipping options of the dialog's address: none until asked for (a changed address
 * clears them), disabled ones shown disabled, one chosen with the arrow keys or a click.
 */
export function ShippingOptions() {
  const { options, rates, chosen } = useStore($addressDialog);
  return (
    <fieldset className="shipping-options">
      <legend>Shipping Method</legend>
      {options === null ? (
        <p className="muted" aria-live="polite">
          {rates === "loading"
            ? "Getting shipping rates..."
            : "Get the shipping rates for this address, then choose one."}
        </p>
      ) : options.length === 0 ? (
        <p className="muted">No shipping options for this address.</p>
      ) : (
        options.map((o) => (
          <label key={o.serviceCode} className={o.isDisabled ? "option-disabled" : undefined}>
            <input
              type="radio"
              name="shippingOption"
              value={o.serviceCode}
              checked={chosen === o.serviceCode}
              disabled={o.isDisabled}
              onChange={() => chooseOption(o.serviceCode)}
            />
            {o.name} <span className="option-price">{o.displayPrice}</span>
            {o.isDisabled && <span className="muted"> (not available)</span>}
          </label>
        ))
      )}
      <button
        type="button"
        className="secondary small"
        aria-busy={rates === "loading"}
        disabled={rates === "loading"}
        onClick={() => void refreshRates()}
      >
        Get Shipping Rates
      </button>
    </fieldset>
  );
}
