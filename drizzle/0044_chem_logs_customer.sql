-- A reading carries its visit's customer, so that a customer's newest readings are one index range (the portal's
-- "Latest water chemistry") instead of every one of the customer's visits' readings, sorted. The app never writes it:
-- a trigger copies it from the visit on every insert and on any change of the reading's visit, so whatever path adds a
-- reading (the form, an offline replay, the demo, an import, plain SQL) it cannot disagree with the visit.
ALTER TABLE "chem_logs" ADD COLUMN "customer_id" uuid DEFAULT null;--> statement-breakpoint
UPDATE "chem_logs" AS r SET "customer_id" = v."customer_id" FROM "visits" AS v
  WHERE v."company_id" = r."company_id" AND v."id" = r."visit_id";--> statement-breakpoint
ALTER TABLE "chem_logs" ALTER COLUMN "customer_id" SET NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pool_bud_reading_customer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."customer_id" := (SELECT v."customer_id" FROM "visits" AS v WHERE v."company_id" = NEW."company_id" AND v."id" = NEW."visit_id");
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "chem_logs_customer" BEFORE INSERT OR UPDATE OF "company_id", "visit_id", "customer_id" ON "chem_logs" FOR EACH ROW EXECUTE FUNCTION "pool_bud_reading_customer"();--> statement-breakpoint
CREATE INDEX "chem_logs_company_customer_taken_idx" ON "chem_logs" USING btree ("company_id","customer_id","taken_at","id");
