/*
 * The y axes' titles of a report chart: the units of the lines drawn against each axis, so a
 * reader can tell which scale a line belongs to (°F on the left, %RH on the right). Used by
 * the page's interactive chart and by the server's picture of it, which must agree.
 */

/** A line of the chart: the axis it is drawn against (0 left, 1 right) and its unit. */
export interface AxisLine {
  axis: number;
  unit: string;
}

/** The title of each used axis, left first: its lines' distinct units, in order, joined. */
export function axisTitles(lines: readonly AxisLine[], axes: readonly number[]): string[] {
  return axes.map((axis) => {
    const units = lines.filter((l) => l.axis === axis && l.unit.trim()).map((l) => l.unit.trim());
    return [...new Set(units)].join(" / ");
  });
}
