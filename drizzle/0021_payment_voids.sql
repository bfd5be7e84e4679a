-- Hand-ordered: drizzle-kit put this unique key after the foreign key that needs it (docs/decisions/037-payment-voids.md).
ALTER TABLE "payments" ADD CONSTRAINT "payments_company_id_key" UNIQUE("company_id","id");--> statement-breakpoint
CREATE TABLE "payment_voids" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"voided_by" text,
	"voided_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_voids_reason_not_blank" CHECK (length(trim("payment_voids"."reason")) > 0)
);
--> statement-breakpoint
ALTER TABLE "payment_voids" ADD CONSTRAINT "payment_voids_voided_by_profiles_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_voids" ADD CONSTRAINT "payment_voids_company_payment_fk" FOREIGN KEY ("company_id","payment_id") REFERENCES "public"."payments"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stripe_events_received_idx" ON "stripe_events" USING btree ("received_at");