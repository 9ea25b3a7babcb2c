import { createRoot } from "react-dom/client";
import ReportChart from "./ReportChart.tsx";

/**
 * Mounts the interactive chart over the server's SVG in the chart box (this module is the
 * chunk the report page loads once its first chart shows). The SVG stays until ECharts has
 * drawn, then goes, and the box says it is live (the page script stops fetching SVGs).
 */
export function mountReportChart(box: HTMLElement) {
  const host = document.createElement("div");
  host.className = "report-live";
  box.append(host);
  const ready = () => {
    box.dataset["live"] = "1";
    for (const svg of box.querySelectorAll(".report-svg, .report-loading")) svg.remove();
    host.classList.add("is-ready");
  };
  createRoot(host).render(<ReportChart onReady={ready} />);
}
