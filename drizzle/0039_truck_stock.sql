CREATE TABLE "stock_levels" (
	"company_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"qty" integer DEFAULT 0 NOT NULL,
	"min_qty" integer,
	CONSTRAINT "stock_levels_company_item_location_key" UNIQUE("company_id","item_id","location_id"),
	CONSTRAINT "stock_levels_qty_non_negative" CHECK ("stock_levels"."qty" >= 0),
	CONSTRAINT "stock_levels_min_qty_non_negative" CHECK ("stock_levels"."min_qty" is null or "stock_levels"."min_qty" >= 0)
);
--> statement-breakpoint
CREATE TABLE "stock_locations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"technician_id" text,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_locations_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "stock_locations_company_technician_key" UNIQUE("company_id","technician_id"),
	CONSTRAINT "stock_locations_warehouse_has_no_technician" CHECK ("stock_locations"."kind" = 'truck' or "stock_locations"."technician_id" is null)
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "stock_movements_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"change" integer NOT NULL,
	"qty_after" integer NOT NULL,
	"other_location_id" uuid,
	"job_id" uuid,
	"reason" text,
	"request_key" uuid,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_movements_company_request_kind_key" UNIQUE("company_id","request_key","kind"),
	CONSTRAINT "stock_movements_qty_after_non_negative" CHECK ("stock_movements"."qty_after" >= 0),
	CONSTRAINT "stock_movements_change_sign" CHECK ("stock_movements"."change" <> 0 or "stock_movements"."kind" = 'count'),
	CONSTRAINT "stock_movements_reason_given" CHECK ("stock_movements"."kind" not in ('count', 'adjusted') or length(trim(coalesce("stock_movements"."reason", ''))) between 1 and 200),
	CONSTRAINT "stock_movements_used_has_job" CHECK ("stock_movements"."kind" <> 'used' or "stock_movements"."job_id" is not null)
);
--> statement-breakpoint
ALTER TABLE "inventory_items" ADD COLUMN "unit" text DEFAULT 'each' NOT NULL;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD COLUMN "pack_name" text;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD COLUMN "pack_size" integer;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD COLUMN "min_qty" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_levels" ADD CONSTRAINT "stock_levels_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_levels" ADD CONSTRAINT "stock_levels_company_item_fk" FOREIGN KEY ("company_id","item_id") REFERENCES "public"."inventory_items"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_levels" ADD CONSTRAINT "stock_levels_company_location_fk" FOREIGN KEY ("company_id","location_id") REFERENCES "public"."stock_locations"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_locations" ADD CONSTRAINT "stock_locations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_locations" ADD CONSTRAINT "stock_locations_technician_id_profiles_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_company_item_fk" FOREIGN KEY ("company_id","item_id") REFERENCES "public"."inventory_items"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_company_location_fk" FOREIGN KEY ("company_id","location_id") REFERENCES "public"."stock_locations"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_levels_company_location_idx" ON "stock_levels" USING btree ("company_id","location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_locations_one_warehouse_idx" ON "stock_locations" USING btree ("company_id") WHERE "stock_locations"."kind" = 'warehouse';--> statement-breakpoint
CREATE INDEX "stock_movements_company_item_idx" ON "stock_movements" USING btree ("company_id","item_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "stock_movements_company_job_idx" ON "stock_movements" USING btree ("company_id","job_id") WHERE "stock_movements"."job_id" is not null;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_min_qty_non_negative" CHECK ("inventory_items"."min_qty" >= 0);--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_pack_valid" CHECK (("inventory_items"."pack_name" is null and "inventory_items"."pack_size" is null) or (length(trim("inventory_items"."pack_name")) between 1 and 20 and "inventory_items"."pack_size" between 2 and 10000));--> statement-breakpoint
-- Hand-written (decision 060): every company has its warehouse, made with the company however it is made.
CREATE OR REPLACE FUNCTION "pool_bud_warehouse_of"(company uuid) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  found uuid;
BEGIN
  INSERT INTO "stock_locations" ("company_id", "kind", "name") VALUES (company, 'warehouse', 'Warehouse')
    ON CONFLICT ("company_id") WHERE "kind" = 'warehouse' DO NOTHING;
  SELECT "id" INTO found FROM "stock_locations" WHERE "company_id" = company AND "kind" = 'warehouse';
  RETURN found;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pool_bud_company_warehouse"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "pool_bud_warehouse_of"(NEW."id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "companies_make_warehouse" AFTER INSERT ON "companies" FOR EACH ROW EXECUTE FUNCTION "pool_bud_company_warehouse"();--> statement-breakpoint
-- A new item's quantity is the warehouse's stock of it, with its "initial" movement: any path that adds an item (the
-- form, the demo, an import, plain SQL) keeps item total = sum of locations = sum of movements.
CREATE OR REPLACE FUNCTION "pool_bud_item_initial_stock"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  warehouse uuid;
BEGIN
  warehouse := "pool_bud_warehouse_of"(NEW."company_id");
  INSERT INTO "stock_levels" ("company_id", "item_id", "location_id", "qty")
    VALUES (NEW."company_id", NEW."id", warehouse, NEW."qty");
  IF NEW."qty" <> 0 THEN
    INSERT INTO "stock_movements" ("company_id", "item_id", "location_id", "kind", "change", "qty_after")
      VALUES (NEW."company_id", NEW."id", warehouse, 'initial', NEW."qty", NEW."qty");
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "inventory_items_initial_stock" AFTER INSERT ON "inventory_items" FOR EACH ROW EXECUTE FUNCTION "pool_bud_item_initial_stock"();--> statement-breakpoint
-- Existing data: each company's warehouse, holding each item's whole quantity, with its "initial" movement.
INSERT INTO "stock_locations" ("company_id", "kind", "name") SELECT "id", 'warehouse', 'Warehouse' FROM "companies";--> statement-breakpoint
INSERT INTO "stock_levels" ("company_id", "item_id", "location_id", "qty")
  SELECT i."company_id", i."id", l."id", i."qty" FROM "inventory_items" i
  JOIN "stock_locations" l ON l."company_id" = i."company_id" AND l."kind" = 'warehouse';--> statement-breakpoint
INSERT INTO "stock_movements" ("company_id", "item_id", "location_id", "kind", "change", "qty_after")
  SELECT i."company_id", i."id", l."id", 'initial', i."qty", i."qty" FROM "inventory_items" i
  JOIN "stock_locations" l ON l."company_id" = i."company_id" AND l."kind" = 'warehouse'
  WHERE i."qty" <> 0;
