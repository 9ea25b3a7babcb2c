import { useLayoutEffect, useRef } from "react";
import type { TagCheck } from "../../src/domain/tags.ts";

interface Props {
  label: string;
  state: TagCheck;
  onPress: () => void;
  disabled?: boolean;
}

/**
 * A native checkbox with three states: `indeterminate` is a DOM property (no attribute), set
 * after each render; the browser then reports it as "mixed" to assistive technology.
 */
export function TriStateBox({ label, state, onPress, disabled }: Props) {
  const ref = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (ref.current) ref.current.indeterminate = state === "indeterminate";
  });
  return (
    <label className="tag-box">
      <input
        ref={ref}
        type="checkbox"
        checked={state === "checked"}
        onChange={onPress}
        disabled={disabled}
        data-state={state}
      />
      {label}
    </label>
  );
}
