import { Hono } from "hono";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import { clientIp } from "../http/clientIp.ts";
import { ApiError } from "../core/errors.ts";
import { formBody } from "../http/input.ts";
import { findUserByEmail, issueToken, peekToken, samlConfigOf, takeToken } from "../services/accounts.ts";
import { consume } from "../services/rateLimit.ts";
import { createAccount } from "../services/registration.ts";
import { startSession } from "../services/sessions.ts";
import { MAX_ID } from "../../src/api/fields.ts";
import { LINK_INVALID } from "../../src/domain/auth.ts";
import { parseReferrer } from "../../src/domain/publicRecord.ts";
import { emailField } from "./gateway.ts";
import { linkBase } from "../http/links.ts";
import { passwordField } from "./passwordReset.ts";

/** Empty, or 'ord-{id}' / 'quo-{id}' with an id a database row can have (int4). */
const knownReferrer = (v: string) => v === "" || (parseReferrer(v)?.id ?? MAX_ID + 1) <= MAX_ID;
const name = (label: string) =>
  z.string().trim().min(1, `Enter your ${label}.`).max(100, `Your ${label} is too long.`);

/** Registration from the public order and quote cards, and validation of the emailed link. */
export function signupRoutes({ db, config, now, mailer }: Deps) {
  return new Hono()
    .post("/new/sign-up", async (c) => {
      const form = await formBody(
        c,
        z.object({
          emailAddress: emailField,
          referrer: z.string().refine(knownReferrer, "Unknown referrer.").optional(),
        }),
      );
      const t = now();
      const email = form.emailAddress.toLowerCase();
      await consume(
        db,
        { key: `signup-ip:${clientIp(c, config.trustProxy)}`, max: 20, windowSeconds: 3600 },
        t,
        "emailAddress",
      );
      await consume(db, { key: `signup:${email}`, max: 5, windowSeconds: 3600 }, t, "emailAddress");
      const user = await findUserByEmail(db, email);
      if (user) {
        const samlConfigName = await samlConfigOf(db, user);
        return c.json({
          success: true,
          data: { userExists: 1, ...(samlConfigName ? { samlConfigName } : {}) },
        });
      }
      const token = await issueToken(
        db,
        { purpose: "register", email, referrer: form.referrer || null, hours: 24 },
        t,
      );
      await mailer.send({
        to: email,
        subject: "Validate your Device Portal account",
        text: `Welcome to the Device Portal.\n\nValidate your account and choose a password here (the link works once, for 24 hours):\n${linkBase(c, config)}/user/validate?token=${token}\n\nIf you did not ask for an account, ignore this message.`,
      });
      return c.json({ success: true, data: { userExists: 0 } });
    })
    .get("/validate/check", async (c) => {
      const row = await peekToken(db, c.req.query("token") ?? "", "register", now());
      if (!row) return c.json({ success: false, data: [{ field: "token", message: LINK_INVALID }] }, 400);
      return c.json({ success: true, data: { email: row.email } });
    })
    .post("/validate", async (c) => {
      const form = await formBody(
        c,
        z.object({
          token: z.string().default(""),
          firstName: name("first name"),
          lastName: name("last name"),
          password: passwordField,
        }),
      );
      const t = now();
      const row = await takeToken(db, form.token, "register", t);
      if (!row || (await findUserByEmail(db, row.email)))
        throw new ApiError(400, [{ field: "token", message: LINK_INVALID }]);
      const userId = await createAccount(db, { ...form, email: row.email, referrer: row.referrer }, t);
      await startSession(c, db, userId, t);
      return c.json({ success: true, data: {} });
    });
}
