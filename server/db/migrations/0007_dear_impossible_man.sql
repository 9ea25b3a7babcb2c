CREATE TABLE "ops_requests" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"token_id" integer,
	"response" json NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "ops_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "ops_requests" ADD CONSTRAINT "ops_requests_token_id_ops_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."ops_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ops_requests_token" ON "ops_requests" USING btree ("token_id");