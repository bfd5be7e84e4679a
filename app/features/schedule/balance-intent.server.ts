// The actions of "Balance the day" and "Cover this day" (docs/routing.md "Balancing"): "Apply" a preview (its balance
// id, the assignment it was computed from and the one it proposes) and "Undo" an applied one. Shared by both pages.
import { data } from 'react-router'
import { z } from 'zod/v4'
import type { CompanyMember } from '~/auth/guards.server'
import { refusalStatus } from '~/auth/guards.server'
import {
  type Assignment,
  AssignmentSchema,
  applyBalance,
  type BalanceKind,
  undoBalance,
} from '~/models/day-balance.server'
import type { BalancePreview } from '~/models/day-balance-preview.server'
import type { LocalDate } from '~/schedule/local-date'
import { unknownIntent } from '~/utils/intent'
import type { BalancePreviewView } from './balance-view'
import { formatMiles } from './route-order'

export type BalanceReply = { tone: 'success' | 'error'; message: string; undo?: string }

const assignment = z.string().transform((text, context): Assignment => {
  try {
    return AssignmentSchema.parse(JSON.parse(text))
  } catch {
    context.addIssue({ code: 'custom', message: 'This preview is not valid. Open the page again.' })
    return z.NEVER
  }
})

export const BalanceIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('apply'), balanceId: z.uuid(), before: assignment, after: assignment }),
  z.object({ intent: z.literal('undo'), balanceId: z.uuid() }),
])

export async function balanceIntent(
  member: CompanyMember,
  formData: FormData,
  { date, kind, coveredTechnicianId }: { date: LocalDate; kind: BalanceKind; coveredTechnicianId: string | null },
) {
  const parsed = BalanceIntentSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) unknownIntent()
  const { companyId, timezone } = member
  const userId = member.profile.id
  if (parsed.data.intent === 'apply') {
    const { balanceId, before, after } = parsed.data
    const result = await applyBalance({
      companyId,
      timezone,
      userId,
      balanceId,
      date,
      kind,
      coveredTechnicianId,
      before,
      after,
    })
    if (!result.ok) return data<BalanceReply>({ tone: 'error', message: result.message }, refusalStatus(result))
    const message = `Applied: ${result.moved} ${result.moved === 1 ? 'visit moves' : 'visits move'} to another technician.`
    return data<BalanceReply>({ tone: 'success', message, undo: balanceId })
  }
  const result = await undoBalance({ companyId, userId, balanceId: parsed.data.balanceId })
  if (!result.ok) return data<BalanceReply>({ tone: 'error', message: result.message }, refusalStatus(result))
  return data<BalanceReply>({ tone: 'success', message: 'Undone: every visit is back where it was.' })
}

/** What the page shows of a preview: miles rounded for display, the assignments as the Apply form posts them. */
export function previewView(preview: BalancePreview): BalancePreviewView {
  return {
    balanceId: preview.balanceId,
    technicians: preview.technicians.map((technician) => ({
      id: technician.id,
      name: technician.name,
      before: formatMiles(technician.beforeMeters),
      after: formatMiles(technician.afterMeters),
      stopsBefore: technician.stopsBefore,
      stopsAfter: technician.stopsAfter,
    })),
    before: JSON.stringify(preview.before),
    after: JSON.stringify(preview.after),
    totalBefore: formatMiles(preview.beforeMeters),
    totalAfter: formatMiles(preview.afterMeters),
    moves: preview.moves,
    unplaced: preview.unplaced,
    changes: preview.changes,
  }
}
