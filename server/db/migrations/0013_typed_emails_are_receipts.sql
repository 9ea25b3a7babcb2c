-- An address typed by a payer used to be stored as the order's contact (and let its typist join
-- the customer at registration). It becomes the order's receipt address; the contact is the
-- quote's own, as the back office set it, or none.
UPDATE "orders" o SET "receipt_email" = o."contact_email", "contact_email" = q."contact_email"
FROM "quotes" q
WHERE q."id" = o."quote_id" AND o."contact_email" IS DISTINCT FROM q."contact_email";--> statement-breakpoint
-- Mail kept before this version: every one-time link in it has expired or will within 72 hours.
UPDATE "outbox" SET "secret_until" = "created_at" + interval '72 hours';
