import { useId, type InputHTMLAttributes, type Ref } from "react";
import { flipSign } from "../../src/domain/signedNumber.ts";

interface Props extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
  /**
   * A number that may be below zero: a "±" button beside it turns its sign, since an iPhone's
   * decimal keypad has no minus key (src/domain/signedNumber.ts).
   */
  signed?: boolean;
}

/** A labelled input with its hint and the server's message beside it. */
export function Field({ label, error, hint, inputRef, signed, ...input }: Props) {
  const id = useId();
  const note = error ?? hint;
  const field = (
    <input
      id={id}
      ref={inputRef}
      aria-invalid={error ? true : undefined}
      aria-describedby={note ? `${id}-note` : undefined}
      {...input}
    />
  );
  // The hint stays outside the label so the input's name is the label alone.
  return (
    <>
      <label htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      {signed ? (
        <div className="signed-field">
          {field}
          <button
            type="button"
            className="secondary outline"
            aria-label="Turn the sign"
            aria-describedby={`${id}-label`}
            disabled={input.disabled}
            onClick={(e) => turnSign(e.currentTarget.previousElementSibling)}
          >
            ±
          </button>
        </div>
      ) : (
        field
      )}
      {note && <small id={`${id}-note`}>{note}</small>}
    </>
  );
}

/** Sets the field's text as typing would, so its owner's onChange hears it, and keeps the focus there. */
function turnSign(input: Element | null) {
  if (!(input instanceof HTMLInputElement)) return;
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  set?.call(input, flipSign(input.value));
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.focus();
}

/** A new password (registration, reset): one rule, one hint, the browser's password manager told. */
export function NewPasswordField({ label, ...rest }: { label: string } & Omit<Props, "label">) {
  return (
    <Field
      label={label}
      type="password"
      name="password"
      autoComplete="new-password"
      hint="At least 10 characters."
      {...rest}
    />
  );
}

/** Messages that belong to the whole form. */
export function FormErrors({ messages }: { messages: string[] }) {
  if (!messages.length) return null;
  return (
    <p role="alert" className="form-error">
      {messages.join(" ")}
    </p>
  );
}
