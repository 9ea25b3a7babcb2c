// The public report's "Tell me when something goes wrong" form (src/components/ReportSubscribe.astro),
// loaded by the page script once the interactive chart is up (src/scripts/reportPage.ts).
import { $reportSubscribe, loadSubscribe, subscribeToReport } from "../stores/reportSubscribe.ts";

/** Shows the form when subscriptions are on, sends it, and shows the answer. */
class ReportSubscribeElement extends HTMLElement {
  private stop: (() => void) | undefined;

  connectedCallback() {
    const section = this.querySelector("section");
    const form = this.querySelector("form");
    const button = form?.querySelector("button");
    const alert = form?.querySelector("[role=alert]");
    const sent = this.querySelector("[role=status]");
    const input = form?.querySelector("input");
    const hash = location.pathname.replace(/\/+$/, "").split("/").pop() ?? "";
    if (!section || !form || !button || !alert || !sent || !input || !hash || hash === "_") return;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void subscribeToReport(decodeURIComponent(hash), input.value);
    });
    this.stop = $reportSubscribe.subscribe((state) => {
      section.hidden = state.step === "hidden";
      form.hidden = state.step === "sent";
      sent.textContent = state.step === "sent" ? state.message : "";
      const busy = state.step === "form" && state.busy;
      button.disabled = busy;
      button.setAttribute("aria-busy", String(busy));
      alert.textContent = state.step === "form" ? (state.error ?? "") : "";
      if (state.step === "form" && state.error) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    });
    // After the report's own reads: the form is below the chart.
    const start = () => void loadSubscribe(decodeURIComponent(hash));
    if ("requestIdleCallback" in window) requestIdleCallback(start, { timeout: 3000 });
    else setTimeout(start, 500);
  }

  disconnectedCallback() {
    this.stop?.();
  }
}
if (!customElements.get("report-subscribe"))
  customElements.define("report-subscribe", ReportSubscribeElement);
