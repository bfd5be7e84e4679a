// What "Forgot password" and "Choose a new password" share: the way back to the login.
import { Link } from 'react-router'

export function BackToLoginLink() {
  return (
    <Link to="/login" className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline">
      Back to login
    </Link>
  )
}
