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
    const sent = this.querySelector<HTMLElement>("[role=status]");
    const input = form?.querySelector("input");
    const hash = location.pathname.replace(/\/+$/, "").split("/").pop() ?? "";
    if (!section || !form || !button || !alert || !sent || !input || !hash || hash === "_") return;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (button.getAttribute("aria-disabled") === "true") return;
      void subscribeToReport(decodeURIComponent(hash), input.value);
    });
    this.stop = $reportSubscribe.subscribe((state) => {
      section.hidden = state.step === "hidden";
      const hadFocus = form.contains(document.activeElement);
      form.hidden = state.step === "sent";
      sent.textContent = state.step === "sent" ? state.message : "";
      // The form goes away once sent: its answer takes the focus, not the page body.
      if (state.step === "sent" && hadFocus) sent.focus();
      const busy = state.step === "form" && state.busy;
      // aria-disabled, not disabled: a disabled button drops the keyboard's focus to the body.
      button.setAttribute("aria-disabled", String(busy));
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
