DROP INDEX "jobs_company_open_scheduled_idx";--> statement-breakpoint
DROP INDEX "jobs_company_completed_idx";--> statement-breakpoint
DROP INDEX "jobs_company_created_idx";--> statement-breakpoint
CREATE INDEX "jobs_company_scheduled_idx" ON "jobs" USING btree ("company_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "jobs_company_technician_completed_idx" ON "jobs" USING btree ("company_id","technician_id","completed_at" DESC NULLS FIRST) WHERE "jobs"."completed_at" is not null;--> statement-breakpoint
CREATE INDEX "jobs_company_open_scheduled_idx" ON "jobs" USING btree ("company_id","scheduled_at","id") WHERE "jobs"."completed_at" is null;--> statement-breakpoint
CREATE INDEX "jobs_company_completed_idx" ON "jobs" USING btree ("company_id","completed_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "jobs"."completed_at" is not null;--> statement-breakpoint
CREATE INDEX "jobs_company_created_idx" ON "jobs" USING btree ("company_id","created_at" DESC NULLS FIRST);