-- Pushes now write the finest rollup level only and a job folds the coarser ones (data/rollupFold.ts).
-- The coarser rollups written so far hold every reading stored until now: now() is where each
-- device's folding stands.
ALTER TABLE "devices" ADD COLUMN "rolled_until" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "devices_rolled_until" ON "devices" USING btree ("rolled_until");