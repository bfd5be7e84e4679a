DROP INDEX "email_outbox_company_customer_idx";--> statement-breakpoint
DROP INDEX "stock_movements_company_item_idx";--> statement-breakpoint
CREATE INDEX "email_outbox_company_customer_idx" ON "email_outbox" USING btree ("company_id","customer_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "email_outbox"."customer_id" is not null;--> statement-breakpoint
CREATE INDEX "stock_movements_company_item_idx" ON "stock_movements" USING btree ("company_id","item_id","seq" DESC NULLS FIRST);