ALTER TABLE "idempotency_keys" ADD COLUMN "user_id" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "target" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "body_hash" text;