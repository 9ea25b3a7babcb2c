import { useId, type SelectHTMLAttributes } from "react";

interface Props extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  options: readonly (readonly [value: string, text: string])[];
  error?: string | undefined;
}

/** A labelled select with the server's message beside it (ui/Field's twin for choices). */
export function SelectField({ label, options, error, ...select }: Props) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-note` : undefined}
        {...select}
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      {error && <small id={`${id}-note`}>{error}</small>}
    </div>
  );
}
