// The import page's column step: each column of the uploaded file with a value from it and the field it goes into
// (the guess from its header, which the person can change, or "Don't import"). Stacked on a phone, a table on wider
// screens; the selects are the form's `columns[i]` fields.
import { cn } from '~/components/ui/cn'
import { inputClass } from '~/components/ui/field'
import { FIELD_LABELS, IMPORT_FIELD_GROUPS } from '~/customer-import/fields'
import { type ColumnChoice, NOT_IMPORTED } from './import-schema'

export type ImportColumn = {
  index: number
  header: string
  field: ColumnChoice
  /** How sure the guess from the header is: 1 known header, 0.9 known behind "Service"/"Customer", 0.6 keyword. */
  confidence: number
  note: string | null
  sample: string | null
}

const GROUPS = IMPORT_FIELD_GROUPS

function guessNote(column: ImportColumn, field: ColumnChoice) {
  if (field !== column.field) return null
  if (column.note) return column.note
  if (field === NOT_IMPORTED) return 'Not recognized: choose a field if this column should be imported.'
  if (column.confidence < 0.9) return 'Guessed from the header: check it.'
  return null
}

export function ImportColumns({
  columns,
  fields,
  onChange,
}: {
  columns: readonly ImportColumn[]
  fields: readonly ColumnChoice[]
  onChange: (index: number, field: ColumnChoice) => void
}) {
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200">
      <div className="hidden grid-cols-[minmax(0,1fr)_minmax(0,1fr)] gap-4 bg-slate-50 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-600 sm:grid">
        <span>Column in your file</span>
        <span>Imported as</span>
      </div>
      <ul className="divide-y divide-slate-200">
        {columns.map((column) => {
          const field = fields[column.index] ?? column.field
          const id = `import-column-${column.index}`
          const note = guessNote(column, field)
          return (
            <li
              key={column.index}
              className="grid gap-2 px-3 py-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] sm:items-start sm:gap-4"
            >
              <div className="min-w-0">
                <label htmlFor={id} className="block font-medium break-words text-slate-900">
                  {column.header || `Column ${column.index + 1}`}
                </label>
                <p className="truncate text-sm text-slate-600">
                  {column.sample ? (
                    <>
                      <span className="sr-only">For example: </span>
                      {column.sample}
                    </>
                  ) : (
                    <span className="italic">empty in the first rows</span>
                  )}
                </p>
              </div>
              <div className="space-y-1">
                <select
                  id={id}
                  name={`columns[${column.index}]`}
                  value={field}
                  onChange={(event) => onChange(column.index, event.target.value as ColumnChoice)}
                  aria-describedby={note ? `${id}-note` : undefined}
                  className={cn(inputClass, field === NOT_IMPORTED && 'text-slate-500')}
                >
                  <option value={NOT_IMPORTED}>Don't import</option>
                  {GROUPS.map((group) => (
                    <optgroup key={group.label} label={group.label}>
                      {group.fields.map((option) => (
                        <option key={option} value={option}>
                          {FIELD_LABELS[option]}
                        </option>
                      ))}
                    </optgroup>
                  ))}
                </select>
                {note ? (
                  <p id={`${id}-note`} className="text-xs text-slate-600">
                    {note}
                  </p>
                ) : null}
              </div>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
