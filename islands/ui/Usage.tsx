import type { Stats } from "../../src/api/session.ts";
import { dataAgeText } from "../../src/domain/plan.ts";

type Key = keyof Stats;
const ROWS: [label: string, count: Key, limit: Key][] = [
  ["Users", "userCount", "userLimit"],
  ["Devices", "deviceCount", "deviceLimit"],
  ["Reports", "reportCount", "reportLimit"],
  ["Alerts", "alertCount", "alertLimit"],
  ["Connectors", "connectorCount", "connectorLimit"],
  ["Computed channels", "computedChannelCount", "computedChannelLimit"],
];

/** The subscription's counts against its plan's limits. */
export function Usage({ stats }: { stats: Stats }) {
  return (
    <table>
      <caption>Usage of your plan</caption>
      <thead>
        <tr>
          <th scope="col">What</th>
          <th scope="col">Used</th>
          <th scope="col">Limit</th>
        </tr>
      </thead>
      <tbody>
        {ROWS.map(([label, count, limit]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{stats[count] ?? 0}</td>
            <td>{stats[limit] ?? "—"}</td>
          </tr>
        ))}
        <tr>
          <th scope="row">Data kept</th>
          <td colSpan={2}>{dataAgeText(stats)}</td>
        </tr>
      </tbody>
    </table>
  );
}
