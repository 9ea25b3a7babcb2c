// The session cookie's home is http/cookies.ts; routes/openapi.ts still imports its name from here.
export { SESSION_COOKIE } from "../http/cookies.ts";
