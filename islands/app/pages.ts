import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import type { RouteName } from "../../src/stores/router.ts";

type Page = LazyExoticComponent<ComponentType>;

const home = lazy(() => import("./pages/HomePage.tsx"));
const reportForm = lazy(() => import("../reports/ReportFormPage.tsx"));

/**
 * Each route's page, its code loaded the first time the route shows (a chart page's
 * ECharts never loads on the settings page). A route without a page breaks the build.
 */
export const pages = {
  home,
  account: home,
  settings: lazy(() => import("./pages/SettingsPage.tsx")),
  security: lazy(() => import("./pages/SecurityPage.tsx")),
  devices: lazy(() => import("../devices/DevicesPage.tsx")),
  deviceDetails: lazy(() => import("../device/DevicePage.tsx")),
  orders: lazy(() => import("../orders/OrdersList.tsx")),
  quotes: lazy(() => import("../orders/QuotesList.tsx")),
  orderDetails: lazy(() => import("../orders/OrderDetails.tsx")),
  quoteDetails: lazy(() => import("../orders/QuoteDetails.tsx")),
  tags: lazy(() => import("../tags/TagsPage.tsx")),
  explore: lazy(() => import("../explore/ExplorePage.tsx")),
  link: lazy(() => import("../links/LinkPage.tsx")),
  deviceMap: lazy(() => import("../devices/DeviceMapPage.tsx")),
  reports: lazy(() => import("../reports/ReportsPage.tsx")),
  reportNew: reportForm,
  reportEdit: reportForm,
} satisfies Record<RouteName, Page>;

/** An /s address that names no route. */
export const notFound: Page = lazy(() => import("./pages/NotFound.tsx"));
