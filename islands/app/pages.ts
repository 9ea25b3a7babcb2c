import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import type { RouteName } from "../../src/stores/router.ts";

type Page = LazyExoticComponent<ComponentType>;
type Load = () => Promise<{ default: ComponentType }>;

const home: Load = () => import("./pages/HomePage.tsx");
const reportForm: Load = () => import("../reports/ReportFormPage.tsx");

/**
 * Each route's page code, loaded the first time the route shows (a chart page's ECharts
 * never loads on the settings page). A route without a page breaks the build.
 */
const loaders = {
  home,
  account: home,
  settings: () => import("./pages/SettingsPage.tsx"),
  security: () => import("./pages/SecurityPage.tsx"),
  devices: () => import("../devices/DevicesPage.tsx"),
  deviceDetails: () => import("../device/DevicePage.tsx"),
  orders: () => import("../orders/OrdersList.tsx"),
  quotes: () => import("../orders/QuotesList.tsx"),
  orderDetails: () => import("../orders/OrderDetails.tsx"),
  quoteDetails: () => import("../orders/QuoteDetails.tsx"),
  tags: () => import("../tags/TagsPage.tsx"),
  explore: () => import("../explore/ExplorePage.tsx"),
  link: () => import("../links/LinkPage.tsx"),
  deviceMap: () => import("../devices/DeviceMapPage.tsx"),
  reports: () => import("../reports/ReportsPage.tsx"),
  reportNew: reportForm,
  reportEdit: reportForm,
  alerts: () => import("../alerts/AlertsPage.tsx"),
  audit: () => import("../audit/AuditPage.tsx"),
} satisfies Record<RouteName, Load>;

const cache = new Map<Load, Page>();
const lazyOf = (load: Load): Page => {
  if (!cache.has(load)) cache.set(load, lazy(load));
  return cache.get(load)!;
};

export const pages = Object.fromEntries(
  Object.entries(loaders).map(([route, load]) => [route, lazyOf(load)]),
) as Record<RouteName, Page>;

/**
 * Starts loading a route's page code before React asks for it (the browser keeps one copy of
 * a module, so the page's lazy import finds it loading or loaded): on a slow link the
 * chunk then crosses the wire while the session is checked, not after.
 */
export function preloadPage(route: RouteName | undefined) {
  if (route) void loaders[route]().catch(() => {});
}

/** An /s address that names no route. */
export const notFound: Page = lazy(() => import("./pages/NotFound.tsx"));
