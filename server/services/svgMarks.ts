import { escapeXml } from "../../src/domain/plainText.ts";
import { MARK_COLORS, markTitle, type ChartMark } from "../../src/domain/chartMarks.ts";

// The alarm story and pinned comments on the server's picture (issue 36): a thin line the
// height of the plot at each mark's time, a small flag at its top with its short label where
// it fits before the next, and the whole story in a <title> (a hover, and what a screen reader says).

const xml = escapeXml;

/** Average width of a character of the flags' 10 px label. */
const CHAR_PX = 5.6;

/** The marks as SVG, inside the plot between `top` and `height - bottom`; "" without any. */
export function svgTimeMarks(
  marks: readonly ChartMark[],
  plot: { top: number; bottom: number; height: number; zone: string },
  toX: (at: number) => number,
): string {
  const xs = marks.map((m) => toX(m.at));
  const bottom = plot.height - plot.bottom;
  return marks
    .map((mark, i) => {
      const x = xs[i]!;
      const color = MARK_COLORS[mark.kind];
      const room = (xs[i + 1] ?? Infinity) - x - 4;
      const width = mark.label.length * CHAR_PX + 6;
      // Flags stagger in two rows, so two close marks keep both labels more often.
      const y = plot.top + 2 + (i % 2) * 14;
      const flag =
        width <= room
          ? `<rect x="${x.toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="13" fill="${color}"/><text x="${(x + 3).toFixed(1)}" y="${y + 10}" font-size="10" fill="#fff">${xml(mark.label)}</text>`
          : `<path d="M${x.toFixed(1)} ${y}h7l-3 4 3 4h-7z" fill="${color}"/>`;
      return `<g class="chart-mark ${mark.kind}"><title>${xml(markTitle(mark, plot.zone))}</title><line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${plot.top}" y2="${bottom}" stroke="${color}" stroke-width="1.5" stroke-dasharray="4 2"/>${flag}</g>`;
    })
    .join("");
}
