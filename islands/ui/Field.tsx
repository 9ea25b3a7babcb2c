import { useId, type InputHTMLAttributes, type Ref } from "react";

interface Props extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled input with its hint and the server's message beside it. */
export function Field({ label, error, hint, inputRef, ...input }: Props) {
  const id = useId();
  const note = error ?? hint;
  // The hint stays outside the label so the input's name is the label alone.
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={inputRef}
        aria-invalid={error ? true : undefined}
        aria-describedby={note ? `${id}-note` : undefined}
        {...input}
      />
      {note && <small id={`${id}-note`}>{note}</small>}
    </>
  );
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
