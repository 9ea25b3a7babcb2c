import { badgeOf, type BadgeOf, type Tone } from "../../src/domain/badges.ts";
import { Check, CircleX, TriangleAlert, type LucideIcon } from "./Icon.tsx";

// A shape beside the colour for the tones that need attention; the label is always there.
const TONE_ICON: Record<Tone, LucideIcon | null> = {
  ok: Check,
  warn: TriangleAlert,
  bad: CircleX,
  info: null,
  muted: null,
};

/** A status (order, billing, shipping, push, battery) as its label with a tone. */
export function StatusBadge(props: BadgeOf) {
  const { label, tone } = badgeOf(props);
  const ToneIcon = TONE_ICON[tone];
  return (
    <span className={`badge badge-${tone}`}>
      {ToneIcon && <ToneIcon size="1em" />}
      {label}
    </span>
  );
}
