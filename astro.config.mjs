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

// Static output: every page is a shell; the API server serves dist/ and maps dynamic
// routes (/p/quote/{id}, /public/report/{hash}, /s/*, ...) to the shells.
export default defineConfig({
  output: "static",
  integrations: [react(), portalDirectives],
  build: { format: "directory", inlineStylesheets: "auto" },
  trailingSlash: "ignore",
  devToolbar: { enabled: false },
});
