// A customer record's pieces — a service location, a body of water, equipment — added, edited and removed alike:
// each form the schema its action parses with and its fields, "Add …" for a new one and "Save changes" for an edit;
// "Edit" and "Remove" beside a piece.
import type { ComponentType, ReactNode } from 'react'
import { BodyOfWaterSchema, EquipmentSchema, ServiceLocationSchema } from '~/models/customer-schemas'
import type { RecordActionData } from './customer-record-schema'
import { BodyOfWaterFields, EquipmentFields, LocationFields } from './form-fields'
import { EditLink, RecordForm, RemoveButton } from './record-form'

// biome-ignore lint/suspicious/noExplicitAny: the fieldset of the piece's schema, whichever piece it is.
type Fields = ComponentType<{ fields: any }>

const PIECES = {
  location: {
    schema: ServiceLocationSchema,
    Fields: LocationFields as Fields,
    add: 'Add service location',
    blank: { minutesOnSite: '30' },
  },
  body: { schema: BodyOfWaterSchema, Fields: BodyOfWaterFields as Fields, add: 'Add body of water', blank: {} },
  equipment: { schema: EquipmentSchema, Fields: EquipmentFields as Fields, add: 'Add equipment', blank: {} },
}

type Piece = keyof typeof PIECES

/**
 * A piece's form. With `edit` (the piece's name and stored values) it is "Edit <name>", `targetId` the piece; without,
 * "Add …", `targetId` what the new piece belongs to (none for a location: it belongs to the record's customer).
 */
export function PieceForm({
  piece,
  targetId,
  title,
  edit,
  actionData,
}: {
  piece: Piece
  targetId?: string
  /** A new piece's heading; the button's words unless given. */
  title?: string
  edit?: { name: string; values: Record<string, string> }
  actionData: RecordActionData
}) {
  const { schema, Fields, add, blank } = PIECES[piece]
  return (
    <RecordForm
      intent={edit ? `edit-${piece}` : `add-${piece}`}
      targetId={targetId}
      schema={schema}
      title={edit ? `Edit ${edit.name}` : (title ?? add)}
      submitLabel={edit ? 'Save changes' : add}
      defaultValue={edit?.values ?? blank}
      actionData={actionData}
    >
      {(fields) => <Fields fields={fields} />}
    </RecordForm>
  )
}

/**
 * A piece as it reads (`children`, then `details` under it) with "Edit" and "Remove" beside it, unless read-only;
 * while `?edit=` names it, its form in place instead.
 */
export function PieceView({
  piece,
  id,
  name,
  values,
  editing,
  readOnly = false,
  consequence,
  details,
  actionData,
  children,
}: {
  piece: Piece
  id: string
  /** How the page names it ("Edit 2 Gulf Blvd", "Remove Pool"). */
  name: string
  /** Its stored values, as its form's text. */
  values: Record<string, string>
  editing: boolean
  readOnly?: boolean
  /** What else "Remove" does, said before it is done. */
  consequence?: string
  details?: ReactNode
  actionData: RecordActionData
  children: ReactNode
}) {
  if (editing) return <PieceForm piece={piece} targetId={id} edit={{ name, values }} actionData={actionData} />
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-2">
        {children}
        {readOnly ? null : (
          <div className="flex flex-wrap gap-1">
            <EditLink to={`?edit=${piece}:${id}`} what={name} />
            <RemoveButton
              intent={`remove-${piece}`}
              targetId={id}
              what={name}
              consequence={consequence}
              actionData={actionData}
            />
          </div>
        )}
      </div>
      {details}
    </>
  )
}
