ALTER TABLE "channels" ADD COLUMN "value_at" timestamp with time zone;--> statement-breakpoint
-- A channel's value is its newest sample's: its time, from the samples already stored.
UPDATE "channels" c SET "value_at" = (SELECT max(s."time") FROM "samples" s WHERE s."channel_id" = c."id");
