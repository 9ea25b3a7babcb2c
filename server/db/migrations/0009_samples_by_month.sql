-- Hand-written (drizzle-kit generate --custom): samples become partitioned by month (UTC), named
-- samples_YYYY_MM, with a DEFAULT partition so a reading outside every month still stores.
-- Columns, primary key and foreign key keep their names, so the schema in
-- server/db/schema/devices.ts (and drizzle-kit's snapshot) describe the table unchanged.
-- server/data/partitions.ts creates the months ahead from then on.
ALTER TABLE "samples" RENAME TO "samples_unpartitioned";
--> statement-breakpoint
ALTER INDEX "samples_channel_id_time_pk" RENAME TO "samples_unpartitioned_pk";
--> statement-breakpoint
CREATE TABLE "samples" (
	"channel_id" integer NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"value" double precision NOT NULL,
	CONSTRAINT "samples_channel_id_time_pk" PRIMARY KEY("channel_id","time")
) PARTITION BY RANGE ("time");
--> statement-breakpoint
ALTER TABLE "samples" ADD CONSTRAINT "samples_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "samples_default" PARTITION OF "samples" DEFAULT;
--> statement-breakpoint
-- A partition for each month (UTC) that holds readings, and for each month from 7 days ago (the
-- oldest a push may send) to three months ahead; server/data/partitions.ts keeps that up.
DO $$
DECLARE
	m timestamp;
BEGIN
	FOR m IN
		SELECT DISTINCT date_trunc('month', "time" AT TIME ZONE 'UTC') FROM "samples_unpartitioned"
		UNION
		SELECT generate_series(date_trunc('month', (now() - interval '7 days') AT TIME ZONE 'UTC'),
			date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months', interval '1 month')
	LOOP
		EXECUTE format(
			'CREATE TABLE IF NOT EXISTS %I PARTITION OF "samples" FOR VALUES FROM (%L) TO (%L)',
			'samples_' || to_char(m, 'YYYY_MM'),
			(m AT TIME ZONE 'UTC')::text,
			((m + interval '1 month') AT TIME ZONE 'UTC')::text
		);
	END LOOP;
END $$;
--> statement-breakpoint
INSERT INTO "samples" ("channel_id", "time", "value")
	SELECT "channel_id", "time", "value" FROM "samples_unpartitioned";
--> statement-breakpoint
DROP TABLE "samples_unpartitioned";
