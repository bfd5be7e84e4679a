CREATE TABLE "price_book_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"price_cents" integer NOT NULL,
	"cost_cents" integer DEFAULT 0 NOT NULL,
	"taxable" boolean DEFAULT true NOT NULL,
	"inventory_item_id" uuid,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_book_items_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "price_book_items_price_non_negative" CHECK ("price_book_items"."price_cents" >= 0),
	CONSTRAINT "price_book_items_cost_non_negative" CHECK ("price_book_items"."cost_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "quote_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"quote_id" uuid NOT NULL,
	"version_id" uuid NOT NULL,
	"decision" text NOT NULL,
	"source" text NOT NULL,
	"signer_name" text NOT NULL,
	"signature_key" text,
	"ip_address" text,
	"decline_reason" text,
	"office_method" text,
	"recorded_by" text,
	"chosen_line_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subtotal_cents" integer DEFAULT 0 NOT NULL,
	"tax_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer DEFAULT 0 NOT NULL,
	"deposit_cents" integer DEFAULT 0 NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quote_decisions_company_quote_key" UNIQUE("company_id","quote_id"),
	CONSTRAINT "quote_decisions_total_is_sum" CHECK ("quote_decisions"."total_cents" = "quote_decisions"."subtotal_cents" + "quote_decisions"."tax_cents"),
	CONSTRAINT "quote_decisions_office_fields" CHECK (("quote_decisions"."source" = 'office') = ("quote_decisions"."office_method" is not null and "quote_decisions"."recorded_by" is not null))
);
--> statement-breakpoint
CREATE TABLE "quote_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"version_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"quantity_hundredths" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"taxable" boolean DEFAULT true NOT NULL,
	"optional" boolean DEFAULT false NOT NULL,
	"price_book_item_id" uuid,
	CONSTRAINT "quote_lines_quantity_positive" CHECK ("quote_lines"."quantity_hundredths" > 0),
	CONSTRAINT "quote_lines_price_non_negative" CHECK ("quote_lines"."unit_price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "quote_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"quote_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"valid_until" date,
	"deposit_kind" text DEFAULT 'none' NOT NULL,
	"deposit_value" integer DEFAULT 0 NOT NULL,
	"customer_note" text,
	"tax_rate_milli_percent" integer DEFAULT 0 NOT NULL,
	"subtotal_cents" integer DEFAULT 0 NOT NULL,
	"tax_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quote_versions_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "quote_versions_company_quote_version_key" UNIQUE("company_id","quote_id","version"),
	CONSTRAINT "quote_versions_total_is_sum" CHECK ("quote_versions"."total_cents" = "quote_versions"."subtotal_cents" + "quote_versions"."tax_cents"),
	CONSTRAINT "quote_versions_deposit_value" CHECK ("quote_versions"."deposit_value" >= 0)
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"viewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotes_company_id_id_key" UNIQUE("company_id","id"),
	CONSTRAINT "quotes_company_number_key" UNIQUE("company_id","number")
);
--> statement-breakpoint
ALTER TABLE "price_book_items" ADD CONSTRAINT "price_book_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_book_items" ADD CONSTRAINT "price_book_items_company_inventory_fk" FOREIGN KEY ("company_id","inventory_item_id") REFERENCES "public"."inventory_items"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_decisions" ADD CONSTRAINT "quote_decisions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_decisions" ADD CONSTRAINT "quote_decisions_company_quote_fk" FOREIGN KEY ("company_id","quote_id") REFERENCES "public"."quotes"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_decisions" ADD CONSTRAINT "quote_decisions_company_version_fk" FOREIGN KEY ("company_id","version_id") REFERENCES "public"."quote_versions"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_lines" ADD CONSTRAINT "quote_lines_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_lines" ADD CONSTRAINT "quote_lines_company_version_fk" FOREIGN KEY ("company_id","version_id") REFERENCES "public"."quote_versions"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_lines" ADD CONSTRAINT "quote_lines_company_price_book_fk" FOREIGN KEY ("company_id","price_book_item_id") REFERENCES "public"."price_book_items"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_versions" ADD CONSTRAINT "quote_versions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_versions" ADD CONSTRAINT "quote_versions_company_quote_fk" FOREIGN KEY ("company_id","quote_id") REFERENCES "public"."quotes"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_company_customer_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_book_items_company_name_idx" ON "price_book_items" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "quote_lines_company_version_idx" ON "quote_lines" USING btree ("company_id","version_id","position");--> statement-breakpoint
CREATE INDEX "quotes_company_customer_idx" ON "quotes" USING btree ("company_id","customer_id");--> statement-breakpoint
CREATE INDEX "quotes_company_state_idx" ON "quotes" USING btree ("company_id","state","created_at");