// @ts-check
import { defineConfig } from "astro/config";
import react from "@astrojs/react";

/** `client:painted` (src/scripts/paintedDirective.ts): hydrate after the record is painted. */
const portalDirectives = {
  name: "portal-directives",
  hooks: {
    /** @param {{ addClientDirective: (d: { name: string; entrypoint: string }) => void }} options */
    "astro:config:setup": ({ addClientDirective }) =>
      addClientDirective({ name: "painted", entrypoint: "./src/scripts/paintedDirective.ts" }),
  },
};

/**
 * The small modules every public record page needs before it can paint (config, paths, day
 * text, badges, the record rules, the public fetch, nanostores' atom, Vite's preload helper).
 * Left alone, the bundler splits them into a dozen files of a few hundred bytes, and on a
 * slow link each is a request queued on one of the browser's six connections: the order card
 * waited on three rounds of them. Grouped, they are one file.
 */
const FIRST_PAINT_MODULES =
  /(src[\\/](api[\\/](paths|config|endpoint)|stores[\\/](config|inlineConfig)|domain[\\/](badges|brand|dayText|order|paths|timezones)|scripts[\\/]publicData)\.ts|nanostores[\\/]atom[\\/]|preload-helper)/;

// Static output: every page is a shell; the API server serves dist/ and maps dynamic
// routes (/p/quote/{id}, /public/report/{hash}, /s/*, ...) to the shells.
export default defineConfig({
  output: "static",
  integrations: [react(), portalDirectives],
  build: { format: "directory", inlineStylesheets: "auto" },
  trailingSlash: "ignore",
  devToolbar: { enabled: false },
  vite: {
    build: {
      // The interactive report chart's chunk is ECharts (~510 KB, ~170 KB gzip): loaded only
      // when a report's chart is shown (client:visible), within the report page's 200 KB gzip
      // budget (tests/e2e/budget.spec.ts). Vite's 500 KB warning printed on every `npm start`.
      chunkSizeWarningLimit: 600,
      rolldownOptions: {
        output: { codeSplitting: { groups: [{ name: "first-paint", test: FIRST_PAINT_MODULES }] } },
      },
    },
  },
});
