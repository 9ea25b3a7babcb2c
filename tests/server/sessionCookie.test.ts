import { parse } from "hono/utils/cookie";
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, tokenCookie } from "../../server/http/cookies.ts";

const token = "m3Jd0_Q-8yZr7cB1n2kLw4Xo9VtE5aHsPuGq6fDiR0c";

describe("the session cookie read from the Cookie header", () => {
  it.each([
    [`${SESSION_COOKIE}=${token}`, token],
    [`theme=dark; ${SESSION_COOKIE}=${token}; lang=en`, token],
    [`theme=dark;${SESSION_COOKIE}=${token}`, token],
    [`${SESSION_COOKIE} = ${token} ; x=1`, token],
    [`my${SESSION_COOKIE}=other; ${SESSION_COOKIE}=${token}`, token],
    [`${SESSION_COOKIE}2=other; ${SESSION_COOKIE}=${token}`, token],
    [`x=${SESSION_COOKIE}=other; ${SESSION_COOKIE}=${token}`, token],
    [`${SESSION_COOKIE}=first; ${SESSION_COOKIE}=${token}`, "first"],
  ])("finds the token in %s as Hono's parser does", (header, expected) => {
    expect(tokenCookie(header, SESSION_COOKIE)).toBe(expected);
    expect(parse(header, SESSION_COOKIE)[SESSION_COOKIE]).toBe(expected);
  });

  it("passes over a value that is no token to the next cookie of the name", () => {
    expect(tokenCookie(`${SESSION_COOKIE}=bad%20value; ${SESSION_COOKIE}=${token}`, SESSION_COOKIE)).toBe(
      token,
    );
  });

  it.each([
    [undefined],
    [""],
    ["theme=dark"],
    [`x${SESSION_COOKIE}=${token}`],
    [`${SESSION_COOKIE}`],
    [`${SESSION_COOKIE}=`],
    [`${SESSION_COOKIE}="quoted"`],
    [`${SESSION_COOKIE}=a%2Fb`],
    [`${SESSION_COOKIE}=a b`],
  ])("finds no token in %s", (header) => {
    expect(tokenCookie(header, SESSION_COOKIE)).toBeNull();
  });
});
