import type { MiddlewareHandler } from "hono";
import type { AnswerCache } from "../core/answerCache.ts";
import { ApiError } from "../core/errors.ts";
import type { Config } from "../config.ts";
import { watchingWrites } from "../db/requestWrites.ts";
import { clearsAnswers } from "./answers.ts";
import { isPrivatePath } from "./headers.ts";
import { hostRefusal } from "./hosts.ts";
import { demoRefusal } from "./local.ts";
import { NUL_REFUSED, nulInUrl } from "./nul.ts";
import { crossSiteCheck } from "./origin.ts";

/**
 * The checks every request passes before any route, as one middleware: the private paths'
 * no-store (on their refusals too), a NUL in the URL (400), a host name not ours (421), the
 * local-only demo (403), a cross-site write (403); after the answer, a write empties the
 * answer cache (the request runs in a context that notes its writes: db/requestWrites.ts). One layer, not six: each async layer cost about 2 µs of a cached read's ~150
 * (measured here), and every request of the portal passes through all of them.
 */
export function gate(
  config: Config,
  answers: AnswerCache,
  crossSite: Parameters<typeof crossSiteCheck>,
): MiddlewareHandler {
  const wrongHost = hostRefusal(config);
  const crossSiteWrite = crossSiteCheck(...crossSite);
  return async (c, next) => {
    if (isPrivatePath(c.req.path)) c.set("privateAnswer", true);
    if (nulInUrl(c.req.url)) throw new ApiError(400, NUL_REFUSED);
    const refused = wrongHost(c) ?? (config.demoLocalOnly ? demoRefusal(c) : undefined);
    if (refused) return refused;
    crossSiteWrite(c);
    const watched = watchingWrites(next);
    await watched.result;
    if (clearsAnswers(c, watched.wrote())) answers.clear();
    return undefined;
  };
}
