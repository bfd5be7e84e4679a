import { Form } from 'react-router'
import { Button } from './ui/button'

/** "Log out" as its own form posting to /logout, for the pages someone may be stuck on (guard cards, invitations). */
export function LogoutButton({ variant }: { variant: 'secondary' | 'ghost' }) {
  return (
    <Form method="post" action="/logout">
      <Button type="submit" variant={variant}>
        Log out
      </Button>
    </Form>
  )
}
