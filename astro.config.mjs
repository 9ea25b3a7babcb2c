// @ts-check
import { defineConfig } from "astro/config";
import react from "@astrojs/react";

// Static output: every page is a shell; the API server serves dist/ and maps dynamic
// routes (/p/quote/{id}, /public/report/{hash}, /s/*, ...) to the shells.
export default defineConfig({
  output: "static",
  integrations: [react()],
  build: { format: "directory", inlineStylesheets: "auto" },
  trailingSlash: "ignore",
  devToolbar: { enabled: false },
});
