// Imported so that the block below adds to Astro's types instead of replacing them.
// oxlint-disable-next-line import/no-unassigned-import
import "astro";

declare module "astro" {
  interface AstroClientDirectives {
    /** Hydrates after the page's painting script has shown its record (src/scripts/paintedDirective.ts). */
    "client:painted"?: boolean;
  }
}
