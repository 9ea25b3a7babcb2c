CREATE TABLE "chart_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"text" text NOT NULL,
	"author_id" integer,
	"author_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "show_alarm_notes" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chart_comments" ADD CONSTRAINT "chart_comments_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chart_comments" ADD CONSTRAINT "chart_comments_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chart_comments" ADD CONSTRAINT "chart_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chart_comments_channel_at" ON "chart_comments" USING btree ("channel_id","at");