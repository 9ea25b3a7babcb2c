// The device pages' icons: Lucide like islands/ui/Icon.tsx (one set), each from its own
// module. The public shell renders PAINTED_ICONS into <template>s at build time for its
// painting script; the signed-in page uses the components.
import BatteryFull from "lucide-react/icons/battery-full";
import BatteryLow from "lucide-react/icons/battery-low";
import BatteryMedium from "lucide-react/icons/battery-medium";
import CircleArrowUp from "lucide-react/icons/circle-arrow-up";
import CircleCheck from "lucide-react/icons/circle-check";
import ExternalLink from "lucide-react/icons/external-link";
import ShieldCheck from "lucide-react/icons/shield-check";
import Wifi from "lucide-react/icons/wifi";
import { TriangleAlert, type LucideIcon } from "../ui/Icon.tsx";

export { default as EllipsisVertical } from "lucide-react/icons/ellipsis-vertical";
export { default as MapPin } from "lucide-react/icons/map-pin";
export { default as Pencil } from "lucide-react/icons/pencil";
export { default as Settings } from "lucide-react/icons/settings";

/** Icons by the names the models (src/domain/deviceView.ts, dashboard.ts) and the painter use. */
export const PAINTED_ICONS = {
  upToDate: CircleCheck,
  updateAvailable: CircleArrowUp,
  warranty: ShieldCheck,
  open: ExternalLink,
  batteryLow: BatteryLow,
  batteryMedium: BatteryMedium,
  batteryFull: BatteryFull,
  signal: Wifi,
  warning: TriangleAlert,
} satisfies Record<string, LucideIcon>;
export type PaintedIcon = keyof typeof PAINTED_ICONS;
