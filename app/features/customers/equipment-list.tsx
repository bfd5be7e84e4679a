// A body of water's equipment on the customer record: "Add equipment", and each item (kind, make and model, serial,
// install date, warranty, notes) with "Edit", "Remove", "New quote" for it and a link to its history. Read-only on an
// archived location.
import { Link } from 'react-router'
import { textLinkTarget } from '~/components/ui/touch'
import { NewQuoteButton } from '~/features/quotes/new-quote-button'
import type { BodyOfWaterData, CustomerRecordData, EquipmentData } from './customer-record.server'
import type { RecordActionData } from './customer-record-schema'
import { ListHeading } from './record-form'
import { PieceForm, PieceView } from './record-pieces'

type Props = { open: CustomerRecordData['open']; actionData: RecordActionData; readOnly: boolean }

export function EquipmentList({ body, open, actionData, readOnly }: Props & { body: BodyOfWaterData }) {
  const adding = open.add === `equipment:${body.id}`
  return (
    <div className="space-y-2">
      <ListHeading
        add={
          readOnly || adding
            ? null
            : { to: `?add=equipment:${body.id}`, label: 'Add equipment', context: `to ${body.name}` }
        }
      >
        <h5 className="text-sm font-semibold text-slate-700">Equipment</h5>
      </ListHeading>
      {adding ? (
        <PieceForm
          piece="equipment"
          targetId={body.id}
          title={`Add equipment to ${body.name}`}
          actionData={actionData}
        />
      ) : null}
      {body.equipment.length === 0 ? (
        <p className="text-sm text-slate-600">No equipment yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {body.equipment.map((item) => (
            <EquipmentItem key={item.id} item={item} open={open} actionData={actionData} readOnly={readOnly} />
          ))}
        </ul>
      )}
    </div>
  )
}

function EquipmentItem({ item, open, actionData, readOnly }: Props & { item: EquipmentData }) {
  const name = [item.make, item.model].filter(Boolean).join(' ') || item.kind
  const details = [
    item.serial ? `serial ${item.serial}` : null,
    item.installedOn ? `installed ${item.installedOn}` : null,
    item.warranty,
  ].filter(Boolean)
  return (
    <li className="py-2">
      <PieceView
        piece="equipment"
        id={item.id}
        name={name}
        values={item.form}
        editing={open.edit === `equipment:${item.id}`}
        readOnly={readOnly}
        actionData={actionData}
      >
        <div className="min-w-0">
          <p>
            <span className="font-medium capitalize">{item.kind}</span>: {name}
          </p>
          {details.length ? <p className="text-slate-600">{details.join(' · ')}</p> : null}
          {item.notes ? <p className="whitespace-pre-line text-slate-600">{item.notes}</p> : null}
          <div className="mt-1 flex flex-wrap items-center gap-3">
            <Link
              to={`/app/equipment/${item.id}`}
              className={`underline ${textLinkTarget}`}
              aria-label={`History of ${item.label}`}
            >
              History
            </Link>
            {readOnly || !item.quotable ? null : (
              <NewQuoteButton
                customerId={item.customerId}
                equipmentId={item.id}
                idempotencyKey={item.newQuoteKey}
                context={`for ${item.label}`}
              />
            )}
          </div>
        </div>
      </PieceView>
    </li>
  )
}
