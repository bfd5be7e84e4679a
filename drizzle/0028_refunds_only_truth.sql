-- Refunds are their `refunds` rows and nothing else (docs/billing.md): payments.refunded_cents, the running total kept
-- beside them, goes. First its values are checked against the rows. Rows adding up to more than the column cannot be
-- reconciled without moving a balance, so the migration stops and says so.
DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM "payments" p
    WHERE (SELECT coalesce(sum(r."amount_cents"), 0) FROM "refunds" r WHERE r."payment_id" = p."id") > p."refunded_cents"
  ) THEN
    RAISE EXCEPTION 'refunds rows add up to more than payments.refunded_cents: reconcile these payments first';
  END IF;
END $$;--> statement-breakpoint
-- A payment refunded by more than its rows say (refunds recorded before the rows existed) gets one "opening" refund
-- for the difference, dated when the payment was recorded, so no balance moves.
INSERT INTO "refunds" ("company_id", "customer_id", "payment_id", "amount_cents", "refunded_total_cents", "created_at")
SELECT p."company_id", p."customer_id", p."id", p."refunded_cents" - coalesce(r."cents", 0), p."refunded_cents", p."created_at"
FROM "payments" p
LEFT JOIN (SELECT "payment_id", sum("amount_cents") AS "cents" FROM "refunds" GROUP BY "payment_id") r
  ON r."payment_id" = p."id"
WHERE p."refunded_cents" > coalesce(r."cents", 0);--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_refund_range";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "refunded_cents";
