-- why: the autopay worker looks for invoices whose off-session charge is due, across companies, every few minutes; without this partial index that is a scan of every invoice ever sent.
CREATE INDEX "invoices_autopay_due_idx" ON "invoices" USING btree ("autopay_next_at") WHERE "invoices"."autopay_next_at" is not null;
