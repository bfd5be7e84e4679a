ALTER TABLE "jobs" DROP COLUMN "before_url";--> statement-breakpoint
ALTER TABLE "jobs" DROP COLUMN "after_url";