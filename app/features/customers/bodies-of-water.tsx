// A service location's bodies of water on the customer record: "Add body of water", and each one with its details,
// "Edit", "Remove" (its equipment goes with it) and its equipment. An archived location's are read-only.

import { surfaceWord } from '~/water/targets'
import type { BodyOfWaterData, CustomerRecordData, LocationData } from './customer-record.server'
import type { RecordActionData } from './customer-record-schema'
import { EquipmentList } from './equipment-list'
import { ListHeading } from './record-form'
import { PieceForm, PieceView } from './record-pieces'

type Open = CustomerRecordData['open']

export function BodiesOfWater({
  location,
  open,
  actionData,
}: {
  location: LocationData
  open: Open
  actionData: RecordActionData
}) {
  const adding = open.add === `body:${location.id}`
  return (
    <div className="space-y-3">
      <ListHeading
        add={
          location.archived || adding
            ? null
            : { to: `?add=body:${location.id}`, label: 'Add body of water', context: `at ${location.address}` }
        }
      >
        <h4 className="font-semibold">Bodies of water</h4>
      </ListHeading>
      {adding ? (
        <div className="rounded-lg border border-slate-200 p-4">
          <PieceForm piece="body" targetId={location.id} actionData={actionData} />
        </div>
      ) : null}
      {location.bodiesOfWater.length === 0 ? (
        <p className="text-sm text-slate-600">No bodies of water yet.</p>
      ) : (
        <ul className="space-y-3">
          {location.bodiesOfWater.map((body) => (
            <BodyItem key={body.id} body={body} open={open} actionData={actionData} readOnly={location.archived} />
          ))}
        </ul>
      )}
    </div>
  )
}

function describeBody(body: BodyOfWaterData) {
  const parts = [
    body.gallons ? `${body.gallons.toLocaleString('en-US')} gallons` : null,
    surfaceWord(body.surface),
    body.sanitizer,
    body.indoor == null ? null : body.indoor ? 'indoor' : 'outdoor',
  ].filter(Boolean)
  return parts.length ? parts.join(' · ') : 'No details yet'
}

function BodyItem({
  body,
  open,
  actionData,
  readOnly,
}: {
  body: BodyOfWaterData
  open: Open
  actionData: RecordActionData
  readOnly: boolean
}) {
  return (
    <li className="space-y-3 rounded-lg border border-slate-200 p-4">
      <PieceView
        piece="body"
        id={body.id}
        name={body.name}
        values={body.form}
        editing={open.edit === `body:${body.id}`}
        readOnly={readOnly}
        consequence="Its equipment is removed with it."
        actionData={actionData}
      >
        <div className="min-w-0">
          <p className="font-medium">{body.name}</p>
          <p className="text-sm text-slate-600">{describeBody(body)}</p>
        </div>
      </PieceView>
      <EquipmentList body={body} open={open} actionData={actionData} readOnly={readOnly} />
    </li>
  )
}
