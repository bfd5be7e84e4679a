-- Photos live in visit_photos (several, labelled, migration 0009 copied these): the two columns of the old before/after pair go.
ALTER TABLE "jobs" DROP COLUMN "before_url";--> statement-breakpoint
ALTER TABLE "jobs" DROP COLUMN "after_url";