-- Counters of the old fixed windows cannot become one row per key; they are short-lived anyway.
DELETE FROM "rate_limits";--> statement-breakpoint
ALTER TABLE "rate_limits" DROP CONSTRAINT "rate_limits_key_window_start_pk";--> statement-breakpoint
ALTER TABLE "rate_limits" ADD PRIMARY KEY ("key");--> statement-breakpoint
ALTER TABLE "rate_limits" ADD COLUMN "events" timestamp with time zone[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "seq" serial NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "browser" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "sessions_user_seq" ON "sessions" USING btree ("user_id","seq");--> statement-breakpoint
ALTER TABLE "rate_limits" DROP COLUMN "window_start";--> statement-breakpoint
ALTER TABLE "rate_limits" DROP COLUMN "count";