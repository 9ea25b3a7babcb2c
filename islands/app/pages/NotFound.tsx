import { getPagePath } from "@nanostores/router";
import { $router } from "../../../src/stores/router.ts";

/** An address inside the signed-in area that names no page. */
export default function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <a href={getPagePath($router, "home")}>Go to your account</a>.
      </p>
    </section>
  );
}
