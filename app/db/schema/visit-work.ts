import { sql } from 'drizzle-orm'
import { boolean, check, foreignKey, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { PHOTO_LABELS } from '../../utils/photo-fields'
import { companyRef, rowId } from './columns'
import { profiles } from './profiles'
import { visits } from './visits'

/**
 * The company's service checklist (Settings → "Checklist", docs/product.md "The visit"). Removing an item archives it,
 * so the ticks saved on past visits keep their item and the reports sent keep saying what was done.
 */
export const checklistItems = pgTable(
  'checklist_items',
  {
    id: rowId(),
    companyId: companyRef(),
    label: text('label').notNull(),
    position: integer('position').notNull(),
    /** The visit cannot be marked complete without a photo while this item is ticked. */
    photoRequired: boolean('photo_required').notNull().default(false),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('checklist_items_company_id_id_key').on(t.companyId, t.id),
    index('checklist_items_company_position_idx').on(t.companyId, t.position).where(sql`${t.archivedAt} is null`),
    check('checklist_items_label_not_blank', sql`length(trim(${t.label})) between 1 and 80`),
  ],
)

/**
 * A ticked checklist item on a visit: a row per tick, deleted on untick. The label is copied when ticked, so the
 * service report says what the technician saw even after the office renames or removes the item.
 */
export const visitChecks = pgTable(
  'visit_checks',
  {
    companyId: uuid('company_id').notNull(),
    visitId: uuid('visit_id').notNull(),
    itemId: uuid('item_id').notNull(),
    label: text('label').notNull(),
    checkedBy: text('checked_by').references(() => profiles.id, { onDelete: 'set null' }),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One tick per item per visit: a tick replayed from the phone's queue, or sent twice, is one row.
    unique('visit_checks_company_visit_item_key').on(t.companyId, t.visitId, t.itemId),
    foreignKey({
      name: 'visit_checks_company_visit_fk',
      columns: [t.companyId, t.visitId],
      foreignColumns: [visits.companyId, visits.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'visit_checks_company_item_fk',
      columns: [t.companyId, t.itemId],
      foreignColumns: [checklistItems.companyId, checklistItems.id],
    }),
  ],
)

// The labels live in a plain module the browser can import without this file's table code (docs/performance.md).
export { PHOTO_LABELS, type PhotoLabel } from '../../utils/photo-fields'

/**
 * A visit's photos (docs/product.md "The visit": several, each labeled Before / After / Other). `client_key` is the
 * phone's idempotency key for the upload: the same photo sent again by the offline queue is one row.
 */
export const visitPhotos = pgTable(
  'visit_photos',
  {
    id: rowId(),
    companyId: uuid('company_id').notNull(),
    visitId: uuid('visit_id').notNull(),
    label: text('label', { enum: PHOTO_LABELS }).notNull(),
    /** Storage key of the processed files (served through an authorized route, never a public URL). */
    storageKey: text('storage_key').notNull(),
    clientKey: uuid('client_key'),
    /**
     * What `clientKey` is bound to besides the visit and `takenBy`: the SHA-256 of the label and the uploaded file's
     * own SHA-256 (docs/decisions/031-idempotency-keys-bound.md). Null on photos stored before keys were bound.
     */
    clientHash: text('client_hash'),
    takenBy: text('taken_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('visit_photos_company_id_id_key').on(t.companyId, t.id),
    unique('visit_photos_company_client_key').on(t.companyId, t.clientKey),
    foreignKey({
      name: 'visit_photos_company_visit_fk',
      columns: [t.companyId, t.visitId],
      foreignColumns: [visits.companyId, visits.id],
    }).onDelete('cascade'),
    index('visit_photos_company_visit_idx').on(t.companyId, t.visitId, t.createdAt),
    check('visit_photos_label_valid', sql`${t.label} in ('before', 'after', 'other')`),
  ],
)
