import type { DeviceStatus } from "../../src/domain/device.ts";

/** The words of each status: the dot's colour only echoes them. */
export const STATUS_TEXT: Record<DeviceStatus, string> = {
  pushing: "Pushing",
  late: "Late",
  offline: "Offline",
};

/** A device's push status as a dot (colour and shape) and its word. */
export function StatusDot({ status }: { status: DeviceStatus }) {
  return (
    <span className={`status-dot status-${status}`}>
      <span className="dot" aria-hidden="true" />
      {STATUS_TEXT[status]}
    </span>
  );
}
