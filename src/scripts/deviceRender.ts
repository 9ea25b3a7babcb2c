import {
  BATTERY_ICON,
  batteryText,
  type Card,
  type Section,
  type TemperatureRow,
} from "../domain/dashboard.ts";
import type { InfoPart, InfoRow } from "../domain/deviceView.ts";
import { element } from "./paint.ts";

/*
 * The public device page's panels drawn from the models of src/domain/deviceView.ts and
 * dashboard.ts, in the markup islands/device/* draws on the signed-in page (same classes,
 * src/styles/device.css). Icons come from <template id="icon-…"> in the shell (Lucide,
 * rendered at build time), so no icon code ships.
 */

/** Public visitors see Fahrenheit, the spec's public default. */
export const PUBLIC_SCALE = "F";

/** A shell icon; meaningful (role img, named) when given a label, decorative otherwise. */
export function icon(name: string, label?: string): Element {
  const template = document.getElementById(`icon-${name}`) as HTMLTemplateElement | null;
  const svg = template?.content.firstElementChild?.cloneNode(true) as Element | undefined;
  if (!svg) return element("span");
  if (label) {
    svg.removeAttribute("aria-hidden");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  }
  return svg;
}

function link(text: string, href: string) {
  const a = element("a", text);
  a.href = href;
  return a;
}

function partNode(p: InfoPart): Node {
  switch (p.kind) {
    case "text":
      return document.createTextNode(p.text);
    case "link":
      return link(p.text, p.href);
    case "open": {
      const a = link("", p.href);
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      a.className = "open-interface";
      a.append(
        icon("open"),
        element("span", p.text),
        element("span", " (opens in a new window)", "visually-hidden"),
      );
      return a;
    }
    case "icon": {
      const span = element("span", undefined, `info-icon info-icon-${p.icon}`);
      span.append(icon(p.icon, p.label));
      return span;
    }
    case "badge":
      return element("span", p.text, `badge badge-${p.text === "Pushing" ? "ok" : "bad"}`);
  }
}

const sameKind = (a: Node, b: Node) =>
  a.nodeName === b.nodeName &&
  (!(a instanceof Element) || a.getAttribute("data-key") === (b as Element).getAttribute("data-key"));

function syncAttributes(target: Element, source: Element) {
  for (const { name } of Array.from(target.attributes))
    if (!source.hasAttribute(name)) target.removeAttribute(name);
  for (const { name, value } of Array.from(source.attributes))
    if (target.getAttribute(name) !== value) target.setAttribute(name, value);
}

/**
 * Makes `target`'s children match `source`'s, changing only what differs: a live repaint
 * every few seconds then rewrites a reading's text instead of rebuilding the cards (no
 * flicker, nothing a screen reader or a selection was on is thrown away).
 */
export function morph(target: Node, source: Node) {
  const next = [...source.childNodes];
  next.forEach((node, i) => {
    const old = target.childNodes[i];
    if (!old) target.appendChild(node);
    else if (!sameKind(old, node)) target.replaceChild(node, old);
    else if (!(old instanceof Element)) {
      if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
    } else {
      syncAttributes(old, node as Element);
      morph(old, node);
    }
  });
  while (target.childNodes.length > next.length) target.lastChild!.remove();
}

/** Fills the info panel's list with its rows. */
export function renderInfo(list: HTMLElement, rows: readonly InfoRow[]) {
  const fresh = element("dl");
  fresh.append(
    ...rows.flatMap((r) => {
      const value = element("dd");
      value.dataset["row"] = r.id;
      value.append(...r.parts.map(partNode));
      return [element("dt", r.label), value];
    }),
  );
  morph(list, fresh);
}

function cardStatus(card: Card) {
  const status = element("p", undefined, "unit-status");
  if (card.battery) {
    const battery = element("span", undefined, `battery battery-${card.battery.band.toLowerCase()}`);
    if (card.battery.alert) battery.classList.add("battery-alert");
    battery.append(icon(BATTERY_ICON[card.battery.band]), batteryText(card.battery));
    status.append(battery);
  }
  if (card.signal) {
    const signal = element("span", undefined, "signal");
    signal.append(icon("signal"), `Signal: ${card.signal.strength} (${card.signal.dbm} dBm)`);
    status.append(signal);
  }
  return status;
}

function readingsList(card: Card) {
  if (!card.readings.length) return element("p", "No readings", "muted");
  const list = element("dl", undefined, "readings");
  for (const r of card.readings) {
    const row = element("div");
    const value = element("dd");
    value.append(r.text);
    row.append(element("dt", r.label), value);
    list.append(row);
  }
  return list;
}

/**
 * One unit card, as islands/device/UnitCard.tsx draws it. Readings are text here: the
 * explore page they lead to on the signed-in page is the owner's.
 */
export function cardNode(card: Card): HTMLElement {
  const item = element("li", undefined, `unit-card${card.muted ? " is-muted" : ""}`);
  item.dataset["key"] = card.key;
  const title = element("h4");
  if (card.port !== null) title.append(element("span", `Port ${card.port}`, "port"));
  title.append(card.title);
  // Decorative: the card says it in words (dashboard.ts, Card.warning).
  if (card.warning) title.append(icon("warning"));
  item.append(title);
  if (card.sensorType) item.append(element("p", card.sensorType, "unit-type"));
  item.append(readingsList(card));
  if (card.silence) item.append(element("p", card.silence, "unit-silence"));
  if (card.battery || card.signal) item.append(cardStatus(card));
  return item;
}

function sectionNode(s: Section) {
  const section = element("section", undefined, `dash-section dash-${s.kind}`);
  section.setAttribute("aria-labelledby", `dash-${s.kind}`);
  const heading = element("h3", s.title);
  heading.id = `dash-${s.kind}`;
  const list = element("ul", undefined, "unit-cards");
  list.append(...s.cards.map((c) => cardNode(c)));
  section.append(heading, list);
  return section;
}

/** The internal-temperature view: each unit's temperature in one line. */
function temperatureList(rows: readonly TemperatureRow[]) {
  const section = element("section", undefined, "temp-view");
  section.setAttribute("aria-labelledby", "temp-view-title");
  const heading = element("h3", "Temperature overview");
  heading.id = "temp-view-title";
  const list = element("ul");
  for (const r of rows) {
    const item = element("li", undefined, r.muted ? "is-muted" : undefined);
    item.append(element("span", r.title), element("span", r.reading.text));
    list.append(item);
  }
  section.append(heading, list);
  return section;
}

/** Fills the dashboard: the temperature view, then a section per kind of unit. */
export function renderDashboard(
  root: HTMLElement,
  model: { sections: readonly Section[]; temperatures: readonly TemperatureRow[]; ramax: boolean },
) {
  root.classList.toggle("ramax", model.ramax);
  const parts: HTMLElement[] = [];
  if (model.temperatures.length) parts.push(temperatureList(model.temperatures));
  parts.push(...model.sections.map((s) => sectionNode(s)));
  if (!model.sections.length) parts.push(element("p", "No sensors to show.", "muted"));
  const fresh = element("div");
  fresh.append(...parts);
  morph(root, fresh);
}
