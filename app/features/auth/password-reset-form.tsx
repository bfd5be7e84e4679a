// What "Forgot password" and "Choose a new password" share: their Conform set-up and the way back to the login.
import { type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Link } from 'react-router'
import type { z } from 'zod'

/** A form checked with its schema when sent, then again as the person corrects it; `lastResult` is the action's. */
export function usePasswordResetForm<Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  id: string,
  schema: Schema,
  lastResult: SubmissionResult<string[]> | undefined,
) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
}

export function BackToLoginLink() {
  return (
    <Link to="/login" className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline">
      Back to login
    </Link>
  )
}
