CREATE TABLE "audit_heads" (
	"subscription_id" integer PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"first_seq" bigint DEFAULT 1 NOT NULL,
	"first_prev_hash" text DEFAULT '0000000000000000000000000000000000000000000000000000000000000000' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"subscription_id" integer NOT NULL,
	"seq" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" integer,
	"actor_label" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" integer,
	"entity_id" text,
	"device_id" integer,
	"old" jsonb,
	"new" jsonb,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_log_subscription_id_seq_pk" PRIMARY KEY("subscription_id","seq")
);
--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("subscription_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_device" ON "audit_log" USING btree ("device_id","at") WHERE device_id is not null;