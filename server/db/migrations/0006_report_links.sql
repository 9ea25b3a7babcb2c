CREATE TABLE "report_views" (
	"report_id" integer NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_views_report_id_day_pk" PRIMARY KEY("report_id","day")
);
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_views" ADD CONSTRAINT "report_views_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;