import { useStore } from "@nanostores/react";
import { Suspense, useEffect } from "react";
import { $router, startRouteData } from "../../src/stores/router.ts";
import { $session, loadSession, requireSignedIn } from "../../src/stores/session.ts";
import { AppNav } from "./AppNav.tsx";
import { notFound, pages, preloadPage } from "./pages.ts";
import { appTitle } from "./titles.ts";

// As soon as the app's script runs, the session check, the page's code and the page's data
// set off together: on a slow link each waiting for the one before cost seconds.
void loadSession();
preloadPage($router.get()?.route);
startRouteData($router.get());

const loading = (text: string) => <p aria-busy="true">{text}</p>;

/** The signed-in app (/user/welcome and /s/*): sign-in guard, nav, and the route's page. */
export default function App() {
  const page = useStore($router);
  const session = useStore($session);
  useEffect(() => void requireSignedIn(), []);
  useEffect(() => {
    document.title = appTitle(page);
  }, [page]);
  // A session that owes the terms is on its way to accepting them: no page shows before.
  if (session.status !== "signedIn" || !session.termsAccepted) return loading("Loading your account...");
  const Page = page ? pages[page.route] : notFound;
  return (
    <>
      <AppNav current={page?.route} />
      <Suspense fallback={loading("Loading...")}>
        <Page />
      </Suspense>
    </>
  );
}
