// The portal's one icon set: Lucide (ISC), inline SVG. Each icon is imported from its own
// module, so a bundle holds only the icons its code names; add an icon here by name, not
// a new set. Without an aria-* prop or title Lucide marks an icon aria-hidden (decorative);
// give a meaningful icon role="img" and aria-label. Static pages use Icon.astro.
export { default as Check } from "lucide-react/icons/check";
export { default as CircleX } from "lucide-react/icons/circle-x";
export { default as Inbox } from "lucide-react/icons/inbox";
export { default as TriangleAlert } from "lucide-react/icons/triangle-alert";
export type { LucideIcon } from "lucide-react";
