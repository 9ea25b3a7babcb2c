CREATE SEQUENCE "public"."orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 100001 CACHE 1;--> statement-breakpoint
CREATE TABLE "payment_attempts" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" text NOT NULL,
	"details" jsonb NOT NULL,
	"response" json,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_charges" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"amount" bigint NOT NULL,
	"currency" integer NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"reference" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_charges_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_pending_subject" ON "payment_attempts" USING btree ("subject") WHERE status = 'pending';