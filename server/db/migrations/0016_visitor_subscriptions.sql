CREATE TABLE "visitor_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"subscriber_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitor_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscriber_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitor_subscribers" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"email" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"confirm_by" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"last_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "visitors_may_subscribe" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "visitor_links" ADD CONSTRAINT "visitor_links_subscriber_id_visitor_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."visitor_subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_notices" ADD CONSTRAINT "visitor_notices_subscriber_id_visitor_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."visitor_subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_notices" ADD CONSTRAINT "visitor_notices_event_id_alarm_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."alarm_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_subscribers" ADD CONSTRAINT "visitor_subscribers_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visitor_links_subscriber" ON "visitor_links" USING btree ("subscriber_id");--> statement-breakpoint
CREATE UNIQUE INDEX "visitor_notices_once" ON "visitor_notices" USING btree ("event_id","subscriber_id");--> statement-breakpoint
CREATE INDEX "visitor_notices_queued" ON "visitor_notices" USING btree ("subscriber_id");--> statement-breakpoint
CREATE UNIQUE INDEX "visitor_subscribers_once" ON "visitor_subscribers" USING btree ("report_id","email");