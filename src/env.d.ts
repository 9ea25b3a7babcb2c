import "astro";

declare module "astro" {
  interface AstroClientDirectives {
    /** Hydrates after the page's painting script has shown its record (src/scripts/paintedDirective.ts). */
    "client:painted"?: boolean;
  }
}
