import type { ShouldRevalidateFunction } from 'react-router'
import { RedirectAfter } from '~/components/redirect-after'
import { Alert } from '~/components/ui/alert'
import { Card } from '~/components/ui/card'

/** A setup page's `shouldRevalidate`: once it is done, it stays to show SetupDone (its loader would redirect at once). */
export const stayOnSetupDone: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  actionResult?.done ? false : defaultShouldRevalidate

/** What a finished first-time setup (staff welcome, customer portal) shows on its way to `to`. */
export function SetupDone({ to, label }: { to: string; label: string }) {
  return (
    <Card className="space-y-4">
      <Alert tone="success">Setup complete! Redirecting…</Alert>
      <RedirectAfter to={to} ms={800} label={label} />
    </Card>
  )
}
