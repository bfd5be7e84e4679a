CREATE TABLE "quote_deposits" (
	"company_id" uuid NOT NULL,
	"quote_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quote_deposits_company_payment_key" UNIQUE("company_id","payment_id")
);
--> statement-breakpoint
CREATE TABLE "work_order_parts_used" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"work_order_id" uuid NOT NULL,
	"job_id" uuid NOT NULL,
	"inventory_item_id" uuid NOT NULL,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"unit_cost_cents" integer DEFAULT 0 NOT NULL,
	"recorded_by" text,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_order_parts_used_quantity_positive" CHECK ("work_order_parts_used"."quantity" > 0),
	CONSTRAINT "work_order_parts_used_price_non_negative" CHECK ("work_order_parts_used"."unit_price_cents" >= 0 and "work_order_parts_used"."unit_cost_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "work_order_visits" (
	"company_id" uuid NOT NULL,
	"work_order_id" uuid NOT NULL,
	"job_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"title" text,
	CONSTRAINT "work_order_visits_company_job_key" UNIQUE("company_id","job_id")
);
--> statement-breakpoint
CREATE TABLE "work_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"quote_id" uuid NOT NULL,
	"quote_version_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"template" text,
	"notes" text,
	"completed_at" timestamp with time zone,
	"invoice_id" uuid,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_orders_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "work_orders_company_quote_key" UNIQUE("company_id","quote_id"),
	CONSTRAINT "work_orders_company_number_key" UNIQUE("company_id","number"),
	CONSTRAINT "work_orders_company_invoice_key" UNIQUE("company_id","invoice_id"),
	CONSTRAINT "work_orders_completed_state" CHECK (("work_orders"."state" = 'completed') = ("work_orders"."completed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "equipment_id" uuid;--> statement-breakpoint
ALTER TABLE "equipment" ADD COLUMN "warranty_until" date;--> statement-breakpoint
ALTER TABLE "quote_deposits" ADD CONSTRAINT "quote_deposits_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_deposits" ADD CONSTRAINT "quote_deposits_company_quote_fk" FOREIGN KEY ("company_id","quote_id") REFERENCES "public"."quotes"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_deposits" ADD CONSTRAINT "quote_deposits_company_payment_fk" FOREIGN KEY ("company_id","payment_id") REFERENCES "public"."payments"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_parts_used" ADD CONSTRAINT "work_order_parts_used_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_parts_used" ADD CONSTRAINT "work_order_parts_used_recorded_by_profiles_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_parts_used" ADD CONSTRAINT "work_order_parts_used_company_work_order_fk" FOREIGN KEY ("company_id","work_order_id") REFERENCES "public"."work_orders"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_parts_used" ADD CONSTRAINT "work_order_parts_used_company_job_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."jobs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_parts_used" ADD CONSTRAINT "work_order_parts_used_company_item_fk" FOREIGN KEY ("company_id","inventory_item_id") REFERENCES "public"."inventory_items"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_visits" ADD CONSTRAINT "work_order_visits_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_visits" ADD CONSTRAINT "work_order_visits_company_work_order_fk" FOREIGN KEY ("company_id","work_order_id") REFERENCES "public"."work_orders"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_visits" ADD CONSTRAINT "work_order_visits_company_job_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."jobs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_company_customer_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_company_quote_fk" FOREIGN KEY ("company_id","quote_id") REFERENCES "public"."quotes"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_company_version_fk" FOREIGN KEY ("company_id","quote_version_id") REFERENCES "public"."quote_versions"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_company_invoice_fk" FOREIGN KEY ("company_id","invoice_id") REFERENCES "public"."invoices"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quote_deposits_company_quote_idx" ON "quote_deposits" USING btree ("company_id","quote_id");--> statement-breakpoint
CREATE INDEX "work_order_parts_used_company_work_order_idx" ON "work_order_parts_used" USING btree ("company_id","work_order_id","recorded_at");--> statement-breakpoint
CREATE INDEX "work_order_parts_used_company_job_idx" ON "work_order_parts_used" USING btree ("company_id","job_id");--> statement-breakpoint
CREATE INDEX "work_order_visits_company_work_order_idx" ON "work_order_visits" USING btree ("company_id","work_order_id","position");--> statement-breakpoint
CREATE INDEX "work_orders_company_state_idx" ON "work_orders" USING btree ("company_id","state","created_at");--> statement-breakpoint
CREATE INDEX "work_orders_company_customer_idx" ON "work_orders" USING btree ("company_id","customer_id");--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_equipment_id_equipment_id_fk" FOREIGN KEY ("equipment_id") REFERENCES "public"."equipment"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quotes_company_equipment_idx" ON "quotes" USING btree ("company_id","equipment_id");