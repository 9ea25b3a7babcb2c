CREATE TABLE "alarm_ack_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"alarm_id" integer NOT NULL,
	"recipient" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"alarm_id" integer NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"value" double precision,
	"by_user" text,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "alarms" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"rule_id" integer,
	"rule_name" text NOT NULL,
	"kind" text NOT NULL,
	"severity" text NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"channel_id" integer,
	"state" text NOT NULL,
	"value" double precision,
	"limit_value" double precision,
	"since" timestamp with time zone NOT NULL,
	"breaches" integer DEFAULT 1 NOT NULL,
	"triggered_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" text,
	"cleared_at" timestamp with time zone,
	"due_at" timestamp with time zone,
	"notices" integer DEFAULT 0 NOT NULL,
	"escalation_level" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"delivery_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL,
	"detail" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"alarm_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"user_id" integer,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"severity" text DEFAULT 'warning' NOT NULL,
	"channel_id" integer,
	"device_id" integer,
	"tag_id" integer,
	"channel_kind" text,
	"low" double precision,
	"high" double precision,
	"scale" text DEFAULT 'F' NOT NULL,
	"dead_band" double precision DEFAULT 0 NOT NULL,
	"delay_seconds" integer DEFAULT 0 NOT NULL,
	"delay_readings" integer DEFAULT 1 NOT NULL,
	"grace_seconds" integer DEFAULT 0 NOT NULL,
	"repeat_minutes" integer DEFAULT 0 NOT NULL,
	"notify" jsonb NOT NULL,
	"escalation" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"quiet_hours" jsonb,
	"paused" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"subscription_id" integer PRIMARY KEY NOT NULL,
	"webhook_secret" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "alerts_muted_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alarm_ack_tokens" ADD CONSTRAINT "alarm_ack_tokens_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_events" ADD CONSTRAINT "alarm_events_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_attempts" ADD CONSTRAINT "alert_attempts_delivery_id_alert_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."alert_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_event_id_alarm_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."alarm_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_events_alarm" ON "alarm_events" USING btree ("alarm_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_one_open" ON "alarms" USING btree ("rule_id","subject_kind","subject_id") WHERE state <> 'cleared';--> statement-breakpoint
CREATE INDEX "alarms_due" ON "alarms" USING btree ("due_at") WHERE state in ('pending', 'triggered') and due_at is not null;--> statement-breakpoint
CREATE INDEX "alarms_subscription" ON "alarms" USING btree ("subscription_id","id");--> statement-breakpoint
CREATE INDEX "alarms_device_open" ON "alarms" USING btree ("device_id") WHERE state <> 'cleared';--> statement-breakpoint
CREATE INDEX "alert_attempts_delivery" ON "alert_attempts" USING btree ("delivery_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_once" ON "alert_deliveries" USING btree ("event_id","channel","recipient");--> statement-breakpoint
CREATE INDEX "alert_deliveries_due" ON "alert_deliveries" USING btree ("next_attempt_at") WHERE state = 'queued';--> statement-breakpoint
CREATE INDEX "alert_deliveries_alarm" ON "alert_deliveries" USING btree ("alarm_id");--> statement-breakpoint
CREATE INDEX "alert_rules_subscription" ON "alert_rules" USING btree ("subscription_id");