// The preview of "Balance the day" / "Cover this day" (docs/routing.md "Balancing"): each technician's miles before →
// after, the total, the visits that change technician, the stops no one can reach in time, "Apply", and the answer
// with its "Undo". Plain forms: they work before JavaScript.
import { Form, useNavigation } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { ScrollRegion } from '~/components/ui/scroll-region'
import type { BalanceReply } from './balance-intent.server'

export type BalancePreviewView = {
  balanceId: string
  technicians: Array<{
    id: string
    name: string
    before: string
    after: string
    stopsBefore: number
    stopsAfter: number
  }>
  before: string
  after: string
  totalBefore: string
  totalAfter: string
  moves: Array<{ visitId: string; customerName: string; from: string; to: string }>
  unplaced: string[]
  changes: boolean
}

export function BalanceAnswer({ reply }: { reply: BalanceReply }) {
  const navigation = useNavigation()
  const undoing = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'undo'
  return (
    <Alert tone={reply.tone} className="flex flex-wrap items-center justify-between gap-2">
      <span>{reply.message}</span>
      {reply.undo ? (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="undo" />
          <input type="hidden" name="balanceId" value={reply.undo} />
          <Button type="submit" variant="secondary" pending={undoing} pendingLabel="Undoing…">
            Undo
          </Button>
        </Form>
      ) : null}
    </Alert>
  )
}

export function BalancePreviewCard({ preview, applyLabel }: { preview: BalancePreviewView; applyLabel: string }) {
  const navigation = useNavigation()
  const applying = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'apply'
  return (
    <Card className="space-y-4">
      <h2 className="text-lg font-semibold">Miles per technician</h2>
      <ScrollRegion label="Miles per technician">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Miles and stops per technician, before and after</caption>
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-2 pr-3 font-semibold">
                Technician
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Miles
              </th>
              <th scope="col" className="py-2 font-semibold">
                Stops
              </th>
            </tr>
          </thead>
          <tbody>
            {preview.technicians.map((technician) => (
              <tr key={technician.id} className="border-b border-slate-100">
                <th scope="row" className="py-2 pr-3 font-medium">
                  {technician.name}
                </th>
                {/* Before and after each stay whole, and wrap at the arrow on a phone. */}
                <td className="py-2 pr-3">
                  <span className="whitespace-nowrap">{technician.before} →</span>{' '}
                  <span className="whitespace-nowrap">{technician.after}</span>
                </td>
                <td className="py-2 whitespace-nowrap">
                  {technician.stopsBefore} → {technician.stopsAfter}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" className="py-2 pr-3 font-semibold">
                Total
              </th>
              <td className="py-2 pr-3 font-semibold" colSpan={2}>
                <span className="whitespace-nowrap">{preview.totalBefore} →</span>{' '}
                <span className="whitespace-nowrap">{preview.totalAfter}</span>
              </td>
            </tr>
          </tfoot>
        </table>
      </ScrollRegion>
      {preview.moves.length > 0 ? (
        <div className="space-y-2">
          <h3 className="font-semibold">Visits that move</h3>
          <ul aria-label="Visits that move" className="space-y-1 text-sm">
            {preview.moves.map((move) => (
              <li key={move.visitId}>
                <span className="font-medium">{move.customerName}</span>: {move.from} → {move.to}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {preview.unplaced.length > 0 ? (
        <Alert tone="error">
          <ul className="space-y-1">
            {preview.unplaced.map((name) => (
              <li key={name}>No one can reach {name} in time: the visit stays.</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {preview.changes ? (
        <Form method="post" preventScrollReset className="space-y-2">
          <input type="hidden" name="intent" value="apply" />
          <input type="hidden" name="balanceId" value={preview.balanceId} />
          <input type="hidden" name="before" value={preview.before} />
          <input type="hidden" name="after" value={preview.after} />
          <p className="text-sm text-slate-700">
            Only this day’s visits move: the service plans keep their day and technician.
          </p>
          <Button type="submit" pending={applying} pendingLabel="Applying…">
            {applyLabel}
          </Button>
        </Form>
      ) : (
        <p className="text-slate-700">
          Nothing to change: no move shortens the day’s driving while keeping every time.
        </p>
      )}
    </Card>
  )
}
