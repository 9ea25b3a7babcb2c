import { useId, type ComponentProps } from "react";
import { flipSign } from "../../src/domain/signedNumber.ts";
import { Field } from "./Field.tsx";

/**
 * A number that may be below zero, with a "±" button that turns its sign: an iPhone's decimal
 * keypad has no minus key (src/domain/signedNumber.ts). Apart from Field, which the sign-in
 * page loads within its byte budget. The button is named "Turn the sign" and described by the
 * field's label, so it never takes the field's own name.
 */
export function SignedField(props: ComponentProps<typeof Field>) {
  const id = useId();
  return (
    <div className="signed-field">
      <Field inputMode="decimal" {...props} />
      <span id={id} hidden>
        {props.label}
      </span>
      <button
        type="button"
        className="secondary outline"
        aria-label="Turn the sign"
        aria-describedby={id}
        disabled={props.disabled}
        onClick={(e) => turnSign(e.currentTarget.parentElement?.querySelector("input") ?? null)}
      >
        ±
      </button>
    </div>
  );
}

/** Sets the field's text as typing would, so its owner's onChange hears it, and keeps the focus there. */
function turnSign(input: HTMLInputElement | null) {
  if (!input) return;
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  set?.call(input, flipSign(input.value));
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.focus();
}
