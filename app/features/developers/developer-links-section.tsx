// Settings → "API keys" and "Webhooks" (owners and admins): each has a page of its own.
import { buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'

export function DeveloperLinksSection() {
  return (
    <>
      <Card className="space-y-3" aria-labelledby="settings-api-keys">
        <h2 id="settings-api-keys" className="text-lg font-semibold">
          API keys
        </h2>
        <p className="text-sm text-slate-700">Connect your own tools to Pool Bud through its API.</p>
        <a href="/app/settings/api-keys" className={buttonClass('secondary')}>
          Manage API keys
        </a>
      </Card>
      <Card className="space-y-3" aria-labelledby="settings-webhooks">
        <h2 id="settings-webhooks" className="text-lg font-semibold">
          Webhooks
        </h2>
        <p className="text-sm text-slate-700">Send signed events to your endpoints when things change.</p>
        <a href="/app/settings/webhooks" className={buttonClass('secondary')}>
          Manage webhooks
        </a>
      </Card>
    </>
  )
}
