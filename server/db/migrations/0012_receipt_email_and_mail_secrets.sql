ALTER TABLE "outbox" ADD COLUMN "secret_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "receipt_email" text;