// The owner's and the admin's dashboards. Visit rows link to the visit; the team section embeds the
// invite form and the people list, which post to /app/team.
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { StatusBadge } from '~/components/status-badge'
import { InviteTeamMemberForm } from '~/components/team/invite-team-member-form'
import { TeamTable } from '~/components/team/team-table'
import { Alert } from '~/components/ui/alert'
import { ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { ScrollRegion } from '~/components/ui/scroll-region'
import { rowLinkTarget, textLinkTarget } from '~/components/ui/touch'
import type {
  AdminDashboardData,
  DashboardVisit,
  OwnerDashboardData,
  UndeliveredEmails,
} from './business-dashboard.server'

export function OwnerDashboard({ data }: { data: OwnerDashboardData }) {
  return (
    <div className="space-y-6">
      <Heading title="Business overview" />
      <UndeliveredEmailsNotice undelivered={data.undeliveredEmails} />
      <MoneySection money={data.money} labor={data.labor} />
      <Stats
        label="Work"
        stats={[
          { label: 'Open visits', value: String(data.open), note: 'Not done, skipped or canceled' },
          { label: 'Overdue', value: String(data.overdue), note: 'Open visits from earlier days' },
          { label: 'Skipped this week', value: String(data.skippedThisWeek), note: 'Since Monday' },
          {
            label: 'Completed this month',
            value: String(data.completedThisMonth),
            note: 'Visits done since the 1st',
          },
          {
            label: 'Inventory value',
            value: data.inventoryValue,
            note: data.lowStock ? `${data.lowStock} low on stock` : 'Nothing low on stock',
          },
          {
            label: 'Team',
            value: String(Object.values(data.team).reduce((sum, n) => sum + n, 0)),
            note: TEAM_NOUNS.map(([role, noun]) => `${data.team[role]} ${plural(data.team[role], noun)}`).join(' · '),
          },
        ]}
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <VisitListCard
          title="Pipeline"
          visits={data.pipeline}
          empty="No open visits. Create one from the dispatch board."
          footer={`Showing ${data.pipeline.length} of ${data.open} open visits.`}
        />
        <VisitListCard title="Recent completions" visits={data.recent} empty="No completed visits yet." completed />
      </div>
      <TeamSection title="Team" inviterRole="owner">
        {/* Read-only here: changing roles and deactivating live on /app/team ("Manage team"). */}
        <TeamTable members={data.members.members} manage={false} />
        <TeamMore shown={data.members.members.length} total={data.members.total} />
      </TeamSection>
    </div>
  )
}

export function AdminDashboard({ data }: { data: AdminDashboardData }) {
  return (
    <div className="space-y-6">
      <Heading title="Operations" />
      <UndeliveredEmailsNotice undelivered={data.undeliveredEmails} />
      <Stats
        stats={[
          { label: "Today's visits", value: String(data.today), note: `Open visits · ${data.open} open in all` },
          { label: 'Overdue', value: String(data.overdue), note: 'Open visits from earlier days' },
          { label: 'Skipped this week', value: String(data.skippedThisWeek), note: 'Since Monday' },
          { label: 'Completed this week', value: String(data.completedThisWeek), note: 'Since Monday' },
          {
            label: 'Invoiced this month',
            value: data.invoicedThisMonth,
            note: `Invoices issued since the 1st · ${data.outstanding} outstanding`,
          },
          { label: 'Active technicians', value: String(data.activeTechnicians), note: 'Signed up and active' },
        ]}
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <VisitListCard title="Upcoming visits" visits={data.upcoming} empty="No open visits." />
        <VisitListCard title="Recent completions" visits={data.recent} empty="No completed visits yet." completed />
      </div>
      <RestockCard items={data.lowStock} />
      <TeamSection title="Team roster" inviterRole="admin">
        <TeamTable members={data.roster.members} manage={false} />
        <TeamMore shown={data.roster.members.length} total={data.roster.total} />
      </TeamSection>
    </div>
  )
}

/**
 * The money figures of docs/billing.md, each summed from the records (app/models/billing-figures.server.ts). The help
 * text says how each is counted, so an owner can check it against the invoices.
 */
function MoneySection({ money, labor }: Pick<OwnerDashboardData, 'money' | 'labor'>) {
  return (
    <section aria-labelledby="money-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="money-heading" className="text-lg font-semibold">
          Money
        </h2>
        <Link
          to="/app/billing/prices"
          className={cn('text-sm font-medium text-brand-800 hover:underline', textLinkTarget)}
        >
          Change prices
        </Link>
      </div>
      <Stats
        label="Money"
        stats={[
          {
            label: 'Invoiced this month',
            value: money.invoicedThisMonth,
            note: 'Invoices issued since the 1st, not void',
          },
          { label: 'Collected', value: money.collected, note: 'Payments received this month, less refunds' },
          { label: 'Outstanding', value: money.outstanding, note: 'Still owed on sent invoices' },
          { label: 'Past due', value: money.pastDue, note: 'Owed on invoices past their due date' },
          {
            label: 'Monthly recurring revenue',
            value: money.monthlyRecurring,
            note: `Monthly rates, plus per-visit rates × visits a month (weekly: 52 ÷ 12 visits; every 2 weeks: half that) · ${money.activePlans} active ${plural(money.activePlans, 'plan')}`,
          },
          {
            label: 'Forecast this month',
            value: money.forecast,
            note: "This month's plans at their rates: monthly rates, plus per-visit rates × this month's visits",
          },
          {
            label: 'Labor cost this month',
            value: labor.thisMonth,
            note: `Minutes on site × each technician's hourly cost, ${labor.visits} completed ${plural(labor.visits, 'visit')}${labor.basis ? `: ${labor.basis}` : ''} (Profit per pool)`,
          },
        ]}
      />
    </section>
  )
}

const TEAM_NOUNS = [
  ['owner', 'owner'],
  ['admin', 'admin'],
  ['dispatcher', 'dispatcher'],
  ['tech', 'technician'],
] as const

function plural(n: number, word: string) {
  return n === 1 ? word : `${word}s`
}

function Heading({ title }: { title: string }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-bold">{title}</h1>
      <ButtonLink to="/app/dispatch" variant="secondary">
        Dispatch board
      </ButtonLink>
    </div>
  )
}

/**
 * Emails the outbox gave up on after a day of retries (a mistyped customer address, a mail server refusing us):
 * the office learns here, and can phone the customer or fix the address.
 */
function UndeliveredEmailsNotice({ undelivered }: { undelivered: UndeliveredEmails }) {
  if (undelivered.total === 0) return null
  const more = undelivered.total - undelivered.emails.length
  return (
    <Alert tone="error" className="space-y-2">
      <p className="font-semibold">
        {undelivered.total} {plural(undelivered.total, 'email')} could not be delivered
      </p>
      <p>We kept trying for a day. Check each address, then contact these people another way.</p>
      <ul className="list-disc space-y-1 pl-5">
        {undelivered.emails.map((email) => (
          <li key={email.id}>
            <span className="font-medium">{email.to}</span>: “{email.subject}”
            {email.lastError ? <span className="block text-xs">Last error: {email.lastError}</span> : null}
          </li>
        ))}
      </ul>
      {more > 0 ? <p className="text-xs">…and {more} more.</p> : null}
    </Alert>
  )
}

type Stat = { label: string; value: string; note: string }

function Stats({ stats, label }: { stats: Stat[]; label?: string }) {
  return (
    <dl aria-label={label} className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {stats.map((stat) => (
        <div key={stat.label} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">{stat.label}</dt>
          <dd className="text-3xl font-bold">{stat.value}</dd>
          <dd className="text-xs text-slate-500">{stat.note}</dd>
        </div>
      ))}
    </dl>
  )
}

function VisitListCard({
  title,
  visits,
  empty,
  footer,
  completed = false,
}: {
  title: string
  visits: DashboardVisit[]
  empty: string
  footer?: string
  completed?: boolean
}) {
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">{title}</h2>
      {visits.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {visits.map((visit) => (
            <li key={visit.id} className="relative py-2 text-sm hover:bg-slate-50">
              <div className="flex flex-wrap items-center gap-2">
                <Link
                  to={`/app/visits/${visit.id}`}
                  className={cn('font-medium text-brand-800 hover:underline', rowLinkTarget)}
                >
                  {visit.customerName}
                </Link>
                {completed ? null : <StatusBadge status={visit.status} />}
                {completed || visit.technicianName ? null : <StatusBadge status="Unassigned" />}
              </div>
              <p className="text-slate-600">
                {completed ? `Completed ${visit.completed}` : visit.scheduled}
                {visit.technicianName ? ` · ${visit.technicianName}` : ''}
              </p>
              <p className="text-slate-500">{visit.address}</p>
            </li>
          ))}
        </ul>
      )}
      {footer ? <p className="text-xs text-slate-500">{footer}</p> : null}
    </Card>
  )
}

function RestockCard({ items }: { items: AdminDashboardData['lowStock'] }) {
  return (
    <Card className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Low inventory</h2>
        <Link to="/app/inventory" className={cn('text-sm font-medium text-brand-800 hover:underline', textLinkTarget)}>
          Open inventory
        </Link>
      </div>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">Everything is stocked above its minimum.</p>
      ) : (
        <ScrollRegion label="Items to restock">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Items to restock (at or below their minimum, by location)</caption>
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Item
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Where
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  In stock
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Price
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {items.map((item) => (
                <tr key={item.key}>
                  <td className="py-2 pr-3">
                    <Link to={`/app/inventory/${item.id}`} className={`hover:underline ${textLinkTarget}`}>
                      {item.name}
                    </Link>
                  </td>
                  <td className="py-2 pr-3 text-slate-600">{item.where}</td>
                  <td className="py-2 pr-3 text-right font-semibold text-amber-800">{item.qty}</td>
                  <td className="py-2 text-right">{item.price}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Card>
  )
}

/** Under a shortened roster: how much of it is shown, and where the rest is. */
function TeamMore({ shown, total }: { shown: number; total: number }) {
  if (shown >= total) return null
  return (
    <p className="text-sm text-slate-600">
      Showing {shown} of {total} people.{' '}
      <Link to="/app/team" className={cn('font-medium text-brand-800 hover:underline', textLinkTarget)}>
        See the whole team
      </Link>
    </p>
  )
}

function TeamSection({
  title,
  inviterRole,
  children,
}: {
  title: string
  inviterRole: 'owner' | 'admin'
  children: ReactNode
}) {
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <Card className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">{title}</h2>
          <Link to="/app/team" className={cn('text-sm font-medium text-brand-800 hover:underline', textLinkTarget)}>
            Manage team
          </Link>
        </div>
        {children}
      </Card>
      <Card>
        <InviteTeamMemberForm inviterRole={inviterRole} />
      </Card>
    </div>
  )
}
