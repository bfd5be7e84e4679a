ALTER TABLE "invoices" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "service_plans" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "invoices_company_updated_idx" ON "invoices" USING btree ("company_id","updated_at");--> statement-breakpoint
CREATE INDEX "payments_company_updated_idx" ON "payments" USING btree ("company_id","updated_at");--> statement-breakpoint
CREATE INDEX "customers_company_updated_idx" ON "customers" USING btree ("company_id","updated_at");--> statement-breakpoint
CREATE INDEX "jobs_company_updated_idx" ON "jobs" USING btree ("company_id","updated_at");--> statement-breakpoint
CREATE INDEX "service_plans_company_updated_idx" ON "service_plans" USING btree ("company_id","updated_at");--> statement-breakpoint
-- Hand-written (docs/api.md "Changes since"): the database keeps updated_at, so no write path can forget it.
CREATE OR REPLACE FUNCTION "pool_bud_touch_updated_at"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."updated_at" := now();
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "customers_touch_updated_at" BEFORE UPDATE ON "customers" FOR EACH ROW EXECUTE FUNCTION "pool_bud_touch_updated_at"();--> statement-breakpoint
CREATE TRIGGER "jobs_touch_updated_at" BEFORE UPDATE ON "jobs" FOR EACH ROW EXECUTE FUNCTION "pool_bud_touch_updated_at"();--> statement-breakpoint
CREATE TRIGGER "service_plans_touch_updated_at" BEFORE UPDATE ON "service_plans" FOR EACH ROW EXECUTE FUNCTION "pool_bud_touch_updated_at"();--> statement-breakpoint
CREATE TRIGGER "invoices_touch_updated_at" BEFORE UPDATE ON "invoices" FOR EACH ROW EXECUTE FUNCTION "pool_bud_touch_updated_at"();--> statement-breakpoint
CREATE TRIGGER "payments_touch_updated_at" BEFORE UPDATE ON "payments" FOR EACH ROW EXECUTE FUNCTION "pool_bud_touch_updated_at"();--> statement-breakpoint
-- A customer as the API shows it includes its service locations and their bodies of water.
CREATE OR REPLACE FUNCTION "pool_bud_touch_customer_of_location"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "customers" SET "updated_at" = now()
   WHERE "id" IN (SELECT "customer_id" FROM "service_locations"
                   WHERE "id" IN (COALESCE(NEW."location_id", OLD."location_id")));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pool_bud_touch_customer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "customers" SET "updated_at" = now() WHERE "id" = COALESCE(NEW."customer_id", OLD."customer_id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "service_locations_touch_customer" AFTER INSERT OR UPDATE OR DELETE ON "service_locations" FOR EACH ROW EXECUTE FUNCTION "pool_bud_touch_customer"();--> statement-breakpoint
CREATE TRIGGER "bodies_of_water_touch_customer" AFTER INSERT OR UPDATE OR DELETE ON "bodies_of_water" FOR EACH ROW EXECUTE FUNCTION "pool_bud_touch_customer_of_location"();--> statement-breakpoint
-- A payment as the API shows it includes its voiding and its refunds, which are records of their own.
CREATE OR REPLACE FUNCTION "pool_bud_touch_payment"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "payments" SET "updated_at" = now() WHERE "id" = NEW."payment_id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "payment_voids_touch_payment" AFTER INSERT ON "payment_voids" FOR EACH ROW EXECUTE FUNCTION "pool_bud_touch_payment"();--> statement-breakpoint
CREATE TRIGGER "refunds_touch_payment" AFTER INSERT ON "refunds" FOR EACH ROW EXECUTE FUNCTION "pool_bud_touch_payment"();
