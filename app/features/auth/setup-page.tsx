// What the two first-time setup pages (a teammate's /welcome, a customer's portal setup) share: their form's foot,
// and the "Setup complete! Redirecting…" screen they stay on once done.
import type { ReactNode } from 'react'
import { type ShouldRevalidateFunction, useNavigation } from 'react-router'
import { RedirectAfter } from '~/components/redirect-after'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { FormErrors } from '~/components/ui/form'

/** The setup form's refusal and its one button. */
export function SetupSubmit({ form, children }: { form: { errorId: string; errors?: string[] }; children: ReactNode }) {
  const navigation = useNavigation()
  return (
    <>
      <FormErrors form={form} />
      <Button type="submit" className="w-full" pending={navigation.state !== 'idle'} pendingLabel="Saving…">
        {children}
      </Button>
    </>
  )
}

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
