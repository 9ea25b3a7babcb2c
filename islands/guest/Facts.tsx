import type { ReactNode } from "react";

/** A record's facts as label/value pairs (a description list, in columns where room allows). */
export function Facts({ label, children }: { label?: string; children: ReactNode }) {
  return (
    <dl className="facts" aria-label={label}>
      {children}
    </dl>
  );
}

/** One fact: its label and its value. */
export function Fact({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  );
}
