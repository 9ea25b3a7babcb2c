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
);
--> statement-breakpoint
ALTER TABLE "sample_rollups" ADD CONSTRAINT "sample_rollups_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;