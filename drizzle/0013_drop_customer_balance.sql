-- The balance is invoices minus payments now (migration 0012 turned each hand-typed balance into an opening-balance invoice).
ALTER TABLE "customers" DROP COLUMN "balance_due";