import * as z from "zod/mini";

/** Where the API, web app, account and websocket hosts live; empty means this origin. */
export const RuntimeConfigSchema = z.object({
  apiBase: z.string(),
  webBase: z.string(),
  accountBase: z.string(),
  wsBase: z.string(),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;
