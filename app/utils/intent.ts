// The answer to a post whose intent no form of the page sends. Apart from app/utils/result.ts because it throws React
// Router's `data`: the models import result.ts, and a script that uses them (the bench) must not load React with them.
import { data } from 'react-router'
import { UNKNOWN_INTENT } from './result'

/**
 * An intent no form of the page sends (a hand-made post): 400, drawn by the error boundary. Every action ends its
 * intent dispatch with this, so none answers an unknown intent in a shape of its own.
 */
export function unknownIntent(): never {
  throw data(UNKNOWN_INTENT, { status: 400 })
}
