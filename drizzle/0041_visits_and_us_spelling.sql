-- Hand-written (decision 069): one word for one thing, "visit", and US spelling in tables, columns and names.
-- Renames keep every row; the one stored British value ("fibreglass") becomes "fiberglass".
ALTER TABLE "billed_visits" RENAME COLUMN "job_id" TO "visit_id";--> statement-breakpoint
ALTER INDEX "billed_visits_company_job_live_key" RENAME TO "billed_visits_company_visit_live_key";--> statement-breakpoint
ALTER TABLE "billed_visits" RENAME CONSTRAINT "billed_visits_company_job_fk" TO "billed_visits_company_visit_fk";--> statement-breakpoint
ALTER TABLE "invoice_lines" RENAME COLUMN "job_id" TO "visit_id";--> statement-breakpoint
ALTER TABLE "companies" RENAME COLUMN "itemise_chemicals" TO "itemize_chemicals";--> statement-breakpoint
ALTER TABLE "chem_logs" RENAME COLUMN "job_id" TO "visit_id";--> statement-breakpoint
ALTER INDEX "chem_logs_company_job_taken_idx" RENAME TO "chem_logs_company_visit_taken_idx";--> statement-breakpoint
ALTER TABLE "chem_logs" RENAME CONSTRAINT "chem_logs_company_job_fk" TO "chem_logs_company_visit_fk";--> statement-breakpoint
ALTER TABLE "job_chemical_additions" RENAME TO "visit_chemical_additions";--> statement-breakpoint
ALTER TABLE "visit_chemical_additions" RENAME CONSTRAINT "job_chemical_additions_pkey" TO "visit_chemical_additions_pkey";--> statement-breakpoint
ALTER TABLE "visit_chemical_additions" RENAME COLUMN "job_id" TO "visit_id";--> statement-breakpoint
ALTER INDEX "job_chemical_additions_company_job_idx" RENAME TO "visit_chemical_additions_company_visit_idx";--> statement-breakpoint
ALTER TABLE "visit_chemical_additions" RENAME CONSTRAINT "job_chemical_additions_company_job_fk" TO "visit_chemical_additions_company_visit_fk";--> statement-breakpoint
ALTER TABLE "visit_chemical_additions" RENAME CONSTRAINT "job_chemical_additions_company_item_fk" TO "visit_chemical_additions_company_item_fk";--> statement-breakpoint
ALTER TABLE "visit_chemical_additions" RENAME CONSTRAINT "job_chemical_additions_product_not_blank" TO "visit_chemical_additions_product_not_blank";--> statement-breakpoint
ALTER TABLE "visit_chemical_additions" RENAME CONSTRAINT "job_chemical_additions_quantity_positive" TO "visit_chemical_additions_quantity_positive";--> statement-breakpoint
ALTER TABLE "visit_chemical_additions" RENAME CONSTRAINT "job_chemical_additions_unit_valid" TO "visit_chemical_additions_unit_valid";--> statement-breakpoint
ALTER TABLE "jobs" RENAME TO "visits";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_pkey" TO "visits_pkey";--> statement-breakpoint
ALTER TABLE "visits" RENAME COLUMN "cancelled_at" TO "canceled_at";--> statement-breakpoint
ALTER INDEX "jobs_company_updated_idx" RENAME TO "visits_company_updated_idx";--> statement-breakpoint
ALTER INDEX "jobs_company_open_scheduled_idx" RENAME TO "visits_company_open_scheduled_idx";--> statement-breakpoint
ALTER INDEX "jobs_company_scheduled_idx" RENAME TO "visits_company_scheduled_idx";--> statement-breakpoint
ALTER INDEX "jobs_company_completed_idx" RENAME TO "visits_company_completed_idx";--> statement-breakpoint
ALTER INDEX "jobs_company_technician_completed_idx" RENAME TO "visits_company_technician_completed_idx";--> statement-breakpoint
ALTER INDEX "jobs_company_technician_scheduled_idx" RENAME TO "visits_company_technician_scheduled_idx";--> statement-breakpoint
ALTER INDEX "jobs_company_customer_scheduled_idx" RENAME TO "visits_company_customer_scheduled_idx";--> statement-breakpoint
ALTER INDEX "jobs_company_location_scheduled_idx" RENAME TO "visits_company_location_scheduled_idx";--> statement-breakpoint
ALTER INDEX "jobs_company_created_idx" RENAME TO "visits_company_created_idx";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_company_id_companies_id_fk" TO "visits_company_id_companies_id_fk";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_completed_by_profiles_id_fk" TO "visits_completed_by_profiles_id_fk";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_technician_id_profiles_id_fk" TO "visits_technician_id_profiles_id_fk";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_company_customer_fk" TO "visits_company_customer_fk";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_company_location_fk" TO "visits_company_location_fk";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_company_plan_fk" TO "visits_company_plan_fk";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_company_id_id_key" TO "visits_company_id_id_key";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_company_plan_occurrence_key" TO "visits_company_plan_occurrence_key";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_plan_has_occurrence" TO "visits_plan_has_occurrence";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_skip_is_cancellation" TO "visits_skip_is_cancellation";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_skip_reason_not_blank" TO "visits_skip_reason_not_blank";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_customer_name_not_blank" TO "visits_customer_name_not_blank";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_address_not_blank" TO "visits_address_not_blank";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_office_note_length" TO "visits_office_note_length";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_customer_note_length" TO "visits_customer_note_length";--> statement-breakpoint
ALTER TABLE "visits" RENAME CONSTRAINT "jobs_completed_or_cancelled" TO "visits_completed_or_canceled";--> statement-breakpoint
ALTER TABLE "service_reports" RENAME COLUMN "job_id" TO "visit_id";--> statement-breakpoint
ALTER TABLE "service_reports" RENAME CONSTRAINT "service_reports_company_job_fk" TO "service_reports_company_visit_fk";--> statement-breakpoint
ALTER TABLE "route_balance_moves" RENAME COLUMN "job_id" TO "visit_id";--> statement-breakpoint
ALTER INDEX "route_balance_moves_company_job_idx" RENAME TO "route_balance_moves_company_visit_idx";--> statement-breakpoint
ALTER TABLE "route_balance_moves" RENAME CONSTRAINT "route_balance_moves_company_job_fk" TO "route_balance_moves_company_visit_fk";--> statement-breakpoint
ALTER TABLE "route_balance_moves" RENAME CONSTRAINT "route_balance_moves_company_id_balance_id_job_id_pk" TO "route_balance_moves_company_id_balance_id_visit_id_pk";--> statement-breakpoint
ALTER TABLE "bodies_of_water" RENAME COLUMN "sanitiser" TO "sanitizer";--> statement-breakpoint
ALTER TABLE "bodies_of_water" RENAME CONSTRAINT "bodies_of_water_sanitiser_valid" TO "bodies_of_water_sanitizer_valid";--> statement-breakpoint
ALTER TABLE "stock_movements" RENAME COLUMN "job_id" TO "visit_id";--> statement-breakpoint
ALTER INDEX "stock_movements_company_job_idx" RENAME TO "stock_movements_company_visit_idx";--> statement-breakpoint
ALTER TABLE "stock_movements" RENAME CONSTRAINT "stock_movements_used_has_job" TO "stock_movements_used_has_visit";--> statement-breakpoint
ALTER TABLE "visit_checks" RENAME COLUMN "job_id" TO "visit_id";--> statement-breakpoint
ALTER TABLE "visit_checks" RENAME CONSTRAINT "visit_checks_company_job_fk" TO "visit_checks_company_visit_fk";--> statement-breakpoint
ALTER TABLE "visit_checks" RENAME CONSTRAINT "visit_checks_company_job_item_key" TO "visit_checks_company_visit_item_key";--> statement-breakpoint
ALTER TABLE "visit_photos" RENAME COLUMN "job_id" TO "visit_id";--> statement-breakpoint
ALTER INDEX "visit_photos_company_job_idx" RENAME TO "visit_photos_company_visit_idx";--> statement-breakpoint
ALTER TABLE "visit_photos" RENAME CONSTRAINT "visit_photos_company_job_fk" TO "visit_photos_company_visit_fk";--> statement-breakpoint
ALTER TABLE "work_order_parts_used" RENAME COLUMN "job_id" TO "visit_id";--> statement-breakpoint
ALTER INDEX "work_order_parts_used_company_job_idx" RENAME TO "work_order_parts_used_company_visit_idx";--> statement-breakpoint
ALTER TABLE "work_order_parts_used" RENAME CONSTRAINT "work_order_parts_used_company_job_fk" TO "work_order_parts_used_company_visit_fk";--> statement-breakpoint
ALTER TABLE "work_order_visits" RENAME COLUMN "job_id" TO "visit_id";--> statement-breakpoint
ALTER TABLE "work_order_visits" RENAME CONSTRAINT "work_order_visits_company_job_fk" TO "work_order_visits_company_visit_fk";--> statement-breakpoint
ALTER TABLE "work_order_visits" RENAME CONSTRAINT "work_order_visits_company_job_key" TO "work_order_visits_company_visit_key";--> statement-breakpoint
ALTER TABLE "bodies_of_water" DROP CONSTRAINT "bodies_of_water_surface_valid";--> statement-breakpoint
UPDATE "bodies_of_water" SET "surface" = 'fiberglass' WHERE "surface" = 'fibreglass';--> statement-breakpoint
ALTER TABLE "bodies_of_water" ADD CONSTRAINT "bodies_of_water_surface_valid" CHECK ("bodies_of_water"."surface" in ('plaster', 'vinyl', 'fiberglass'));--> statement-breakpoint
ALTER TRIGGER "jobs_touch_updated_at" ON "visits" RENAME TO "visits_touch_updated_at";
