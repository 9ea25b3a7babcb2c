-- Hand-written (drizzle-kit generate --custom; drizzle's schema has no storage parameters):
-- every push rewrites its device's, sensors', channel groups' and channels' current state
-- (value, last time, battery, uptime). None of those columns is indexed, so each update can
-- stay on its page (a HOT update: no new index entries, far less WAL) when the page has room.
-- At the default fillfactor of 100 a freshly loaded table has none, and the first push of every
-- device moved all its rows and wrote all their index entries (docs/scaling.md: the first
-- minute after a fresh load). 80 leaves a fifth of each page for the next versions.
ALTER TABLE "devices" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "sensors" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "channel_groups" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "channels" SET (fillfactor = 80);
--> statement-breakpoint
-- The rollups' existing months likewise (server/data/partitions.ts makes new ones so): each push
-- updates its channels' current buckets in place. A partitioned parent takes no storage
-- parameters, so each month is set.
DO $$
DECLARE part regclass;
BEGIN
	FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'sample_rollups'::regclass LOOP
		EXECUTE format('ALTER TABLE %s SET (fillfactor = 85)', part);
	END LOOP;
END $$;
