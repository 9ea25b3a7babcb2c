-- Hand-written (drizzle-kit generate --custom): sample_rollups become partitioned by month (UTC)
-- of their bucket, as samples are since 0009, so retention (server/flows/dataRetention.ts) drops
-- whole months of both. Named sample_rollups_YYYY_MM, with a DEFAULT partition for buckets outside
-- every month. Every level's buckets (5 min to 3 h, aligned to the epoch) lie inside one UTC month.
-- Columns, primary key and foreign key keep their names, so the schema in
-- server/db/schema/rollups.ts (and drizzle-kit's snapshot) describe the table unchanged.
-- server/data/partitions.ts creates the months ahead from then on.
ALTER TABLE "sample_rollups" RENAME TO "sample_rollups_unpartitioned";
--> statement-breakpoint
ALTER INDEX "sample_rollups_channel_id_level_bucket_pk" RENAME TO "sample_rollups_unpartitioned_pk";
--> statement-breakpoint
CREATE TABLE "sample_rollups" (
	"channel_id" integer NOT NULL,
	"level" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"min_value" double precision NOT NULL,
	"max_value" double precision NOT NULL,
	"sum_value" double precision NOT NULL,
	"sample_count" integer NOT NULL,
	"min_at" timestamp with time zone NOT NULL,
	"max_at" timestamp with time zone NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sample_rollups_channel_id_level_bucket_pk" PRIMARY KEY("channel_id","level","bucket")
) PARTITION BY RANGE ("bucket");
--> statement-breakpoint
ALTER TABLE "sample_rollups" ADD CONSTRAINT "sample_rollups_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "sample_rollups_default" PARTITION OF "sample_rollups" DEFAULT;
--> statement-breakpoint
-- A partition for each month (UTC) that holds buckets, and for each month that has a samples
-- partition (so both tables' months match), from 7 days ago to three months ahead at least.
DO $$
DECLARE
	m timestamp;
BEGIN
	FOR m IN
		SELECT DISTINCT date_trunc('month', "bucket" AT TIME ZONE 'UTC') FROM "sample_rollups_unpartitioned"
		UNION
		SELECT to_date(substr(c.relname, 9), 'YYYY_MM')::timestamp FROM pg_inherits i
			JOIN pg_class c ON c.oid = i.inhrelid
			WHERE i.inhparent = 'samples'::regclass AND c.relname ~ '^samples_[0-9]{4}_[0-9]{2}$'
		UNION
		SELECT generate_series(date_trunc('month', (now() - interval '7 days') AT TIME ZONE 'UTC'),
			date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months', interval '1 month')
	LOOP
		EXECUTE format(
			'CREATE TABLE IF NOT EXISTS %I PARTITION OF "sample_rollups" FOR VALUES FROM (%L) TO (%L)',
			'sample_rollups_' || to_char(m, 'YYYY_MM'),
			(m AT TIME ZONE 'UTC')::text,
			((m + interval '1 month') AT TIME ZONE 'UTC')::text
		);
	END LOOP;
END $$;
--> statement-breakpoint
INSERT INTO "sample_rollups" ("channel_id", "level", "bucket", "min_value", "max_value", "sum_value",
	"sample_count", "min_at", "max_at", "first_at", "last_at")
	SELECT "channel_id", "level", "bucket", "min_value", "max_value", "sum_value",
		"sample_count", "min_at", "max_at", "first_at", "last_at" FROM "sample_rollups_unpartitioned";
--> statement-breakpoint
DROP TABLE "sample_rollups_unpartitioned";
