import { type Context, Hono, type MiddlewareHandler } from "hono";
import { compress } from "hono/compress";
import { resolveDeps, type AppDeps } from "./deps.ts";
import { refuseDeviceKeys } from "./http/demoKeys.ts";
import { isDemoDeviceKey } from "./seed/keys.ts";
import { NOT_FOUND } from "./core/errors.ts";
import { limitBodyTo } from "./http/bodyLimit.ts";
import { errorResponse } from "./http/errors.ts";
import { answerError } from "./http/onError.ts";
import { answerHeaders } from "./http/headers.ts";
import { gate } from "./http/gate.ts";
import { memoRouter } from "./http/memoRouter.ts";
import { observeRequests } from "./http/requestLog.ts";
import { noteWrites } from "./http/readRouting.ts";
import { alertRoutes } from "./routes/alerts.ts";
import { auditRoutes } from "./routes/audit.ts";
import { chartMarkRoutes } from "./routes/chartMarks.ts";
import { publicReportMarkRoutes } from "./routes/publicReportMarks.ts";
import { accountMessageRoutes } from "./routes/accountMessages.ts";
import { accountSessionRoutes } from "./routes/accountSessions.ts";
import { countryRoutes } from "./routes/countries.ts";
import { devicePushRoutes } from "./routes/devicePush.ts";
import { devMailboxRoutes } from "./routes/devMailbox.ts";
import { gatewayRoutes } from "./routes/gateway.ts";
import { grantAccessRoutes } from "./routes/grantAccess.ts";
import { guestPaymentRoutes } from "./routes/guestPayments.ts";
import { healthRoutes } from "./routes/health.ts";
import { lookupRoutes } from "./routes/lookup.ts";
import { metricsRoutes } from "./routes/metrics.ts";
import { mfaRoutes } from "./routes/mfa.ts";
import { openApiRoutes } from "./routes/openapi.ts";
import { opsRoutes } from "./routes/ops.ts";
import { passwordResetRoutes } from "./routes/passwordReset.ts";
import { publicOrderRoutes } from "./routes/publicOrders.ts";
import { publicQuoteRoutes } from "./routes/publicQuotes.ts";
import { quoteOrderRoutes } from "./routes/quoteOrder.ts";
import { quotePdfRoutes } from "./routes/quotePdf.ts";
import { accountOrderRoutes } from "./routes/accountOrders.ts";
import { resetRequestRoutes } from "./routes/resetRequest.ts";
import { runtimeConfigRoutes } from "./routes/runtimeConfig.ts";
import { samlRoutes } from "./routes/saml.ts";
import { samlCompleteRoutes } from "./routes/samlComplete.ts";
import { sessionRoutes } from "./routes/session.ts";
import { signupRoutes } from "./routes/signup.ts";
import { tagRoutes } from "./routes/tags.ts";
import { deviceRoutes } from "./routes/devices.ts";
import { publicDeviceRoutes } from "./routes/publicDevices.ts";
import { publicReportRoutes } from "./routes/publicReports.ts";
import { reportExportRoutes } from "./routes/reportExports.ts";
import { reportComplianceRoutes } from "./routes/reportCompliance.ts";
import { reportRoutes } from "./routes/reports.ts";
import { reportVisitorRoutes } from "./routes/reportVisitors.ts";
import { visitorSubscriptionRoutes } from "./routes/visitorSubscriptions.ts";
import { badgeRoutes } from "./routes/badges.ts";
import { reportScheduleRoutes } from "./routes/reportSchedules.ts";
import { reportUnsubscribeRoutes } from "./routes/reportUnsubscribe.ts";
import { devReportScheduleRoutes } from "./routes/devReportSchedules.ts";
import { deviceDataRoutes } from "./routes/deviceData.ts";
import { linkRoutes } from "./routes/links.ts";
import { liveRoutes } from "./routes/live.ts";
import { trackingRoutes } from "./routes/tracking.ts";
import { validateRoutes } from "./routes/validate.ts";
import type { Config } from "./config.ts";
import { isLocalRequest } from "./http/local.ts";
import { isDevPage, type Site, sitePath } from "./static/site.ts";

const API_BODY_LIMIT = 1024 * 1024;

/** Builds the whole HTTP app; index.ts only serves it, tests call app.request(). */
export function buildApp(input: AppDeps) {
  const deps = resolveDeps(input);
  const origins = Object.values(deps.config.origins).filter(Boolean);
  const app = new Hono({ router: memoRouter() });

  app.use(answerHeaders);
  app.use(observeRequests(deps.config));
  app.use(
    gate(deps.config, deps.answers, [
      (origin, self) => origin === self || origins.includes(origin),
      // The identity provider posts its response from its own site by design; the signed,
      // single-use assertion is what protects that endpoint.
      (path) => path.startsWith("/auth/saml/acs/"),
    ]),
  );
  if (deps.reads.replica) app.use(noteWrites(deps.reads, deps.db));
  if (!deps.config.demo) app.use("/api/v1/device-data/*", refuseDeviceKeys(isDemoDeviceKey));
  const limitAnyBody = limitBodyTo(API_BODY_LIMIT);
  // A GET or HEAD body is never read; asking for it would build a whole fetch Request per read.
  const limitBody: MiddlewareHandler = (c, next) =>
    c.req.method === "GET" || c.req.method === "HEAD" ? next() : limitAnyBody(c, next);
  app.use("/api/*", limitBody);
  app.use("/auth/*", limitBody);
  app.use("/gateway/*", limitBody);
  app.use("/user/*", limitBody);
  app.use("/devices/*", limitBody);
  // The report page's chart image (~46 KB) shrinks to a third or less with gzip: on a slow
  // link that is most of the wait for the first chart. Gzip only: an answer sent plain to a
  // visitor who takes no gzip (deflate, say) must not be compressed again on every request.
  // The report's JSON reads gzip their own answers (sendSerialized), once per cached answer.
  app.use("/public/report-svg/*", compress({ encoding: "gzip" }));

  // api host: the JSON API of the signed-in app, devices and integrators. Unknown /api/ paths
  // answer the error list, never a page.
  app.route("/", healthRoutes(deps));
  app.route("/", metricsRoutes(deps));
  app.route("/", openApiRoutes(deps));
  app.route("/", devicePushRoutes(deps));
  app.route("/", sessionRoutes(deps));
  app.route("/", accountMessageRoutes(deps));
  app.route("/", mfaRoutes(deps));
  app.route("/", accountSessionRoutes(deps));
  app.route("/", publicOrderRoutes(deps));
  app.route("/", publicQuoteRoutes(deps));
  app.route("/", accountOrderRoutes(deps));
  app.route("/", lookupRoutes(deps));
  app.route("/", tagRoutes(deps));
  app.route("/", deviceRoutes(deps));
  app.route("/", alertRoutes(deps));
  app.route("/", auditRoutes(deps));
  app.route("/", publicDeviceRoutes(deps));
  app.route("/", publicReportRoutes(deps));
  app.route("/", reportExportRoutes(deps));
  app.route("/", reportComplianceRoutes(deps));
  app.route("/", reportRoutes(deps));
  app.route("/", reportVisitorRoutes(deps));
  app.route("/", visitorSubscriptionRoutes(deps));
  app.route("/", chartMarkRoutes(deps));
  app.route("/", publicReportMarkRoutes(deps));
  app.route("/", reportScheduleRoutes(deps));
  app.route("/", linkRoutes(deps));
  app.route("/", opsRoutes(deps));
  // websocket host: live readings (same origin unless WS_ORIGIN says otherwise).
  app.route("/", liveRoutes(deps));
  app.all("/api/*", (c) => errorResponse(c, 404, [{ field: null, message: NOT_FOUND }]));

  // account host: sign-in, password reset, registration and SAML (form posts and redirects),
  // and the shipment tracking of the public order page.
  app.route("/", gatewayRoutes(deps));
  app.route("/", resetRequestRoutes(deps));
  app.route("/", passwordResetRoutes(deps));
  app.route("/", signupRoutes(deps));
  app.route("/", validateRoutes(deps));
  app.route("/", samlRoutes(deps));
  app.route("/", samlCompleteRoutes(deps));
  app.route("/", trackingRoutes(deps));
  app.route("/", grantAccessRoutes(deps));

  // demo: the outbox as a page, in demo mode only (and for this computer only).
  if (deps.config.demo) app.route("/", devMailboxRoutes(deps));
  if (deps.config.demo) app.route("/", devReportScheduleRoutes(deps));

  // web host: the runtime config and the built pages, last, since they answer any GET.
  app.route("/", badgeRoutes(deps));
  app.route("/", runtimeConfigRoutes(deps));
  app.route("/", countryRoutes(deps));
  app.route("/", guestPaymentRoutes(deps));
  app.route("/", quoteOrderRoutes(deps));
  app.route("/", quotePdfRoutes(deps));
  app.route("/", reportUnsubscribeRoutes(deps));
  app.route("/", deviceDataRoutes(deps));
  if (deps.site) app.on(["GET", "HEAD"], "*", siteHandler(deps.site, deps.config));
  // An island's form posted natively (a script's form.submit() before hydration) goes back
  // to its page, unread: the fields never reach a URL or a log.
  // One leading slash: "//evil.example/x" would be another site.
  if (deps.site) app.post("*", (c) => c.redirect(new URL(c.req.url).pathname.replace(/^\/+/, "/"), 303));

  app.notFound((c) => errorResponse(c, 404, [{ field: null, message: NOT_FOUND }]));
  app.onError(answerError);
  return app;
}
export type App = ReturnType<typeof buildApp>;

/**
 * The built pages; the developers' UI kit (/ui-kit) under /dev/mailbox's rule: demo mode and a
 * request from this computer, else the 404 page (it is no page for visitors).
 */
function siteHandler(site: Site, config: Config) {
  return (c: Context) =>
    isDevPage(sitePath(c)) && !(config.demo && isLocalRequest(c)) ? site.notFound(c) : site.handler(c);
}
