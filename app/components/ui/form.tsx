// The one Conform set-up every form uses, and the one place a form's own refusal (not a field's) shows.
import { type Submission, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useNavigation } from 'react-router'
import type { z } from 'zod'
import { Alert } from './alert'
import type { ConformField } from './field'

type FormSchema = z.ZodType<unknown, Record<string, unknown>>

type ZodFormOptions<Schema extends FormSchema> = Omit<
  Parameters<typeof useForm<z.input<Schema>, z.output<Schema>>>[0],
  'constraint' | 'onValidate' | 'shouldRevalidate'
> & {
  id: string
  /** Where `schema` wraps its fields in something Conform cannot read constraints from; null for none. */
  constraint?: z.ZodType | null
  /** How the browser parses the form, where it is not `parseWithZod(formData, { schema })`. */
  parse?: (formData: FormData) => Submission<z.input<Schema>, string[], z.output<Schema>>
}

/** A schema's constraints (`required`, `maxLength`…), worked out once per schema: a page can hold a form per row. */
const constraints = new WeakMap<z.ZodType, ReturnType<typeof getZodConstraint>>()

function constraintOf(schema: z.ZodType) {
  let constraint = constraints.get(schema)
  if (!constraint) {
    constraint = getZodConstraint(schema)
    constraints.set(schema, constraint)
  }
  return constraint
}

/**
 * A form checked in the browser with the schema its action parses with: first when sent (or on leaving a field, with
 * `shouldValidate: 'onBlur'`), then again as the person corrects it. `lastResult` is the action's reply.
 */
export function useZodForm<Schema extends FormSchema>(
  schema: Schema,
  {
    constraint = schema,
    parse = (formData) => parseWithZod(formData, { schema }),
    shouldValidate = 'onSubmit',
    ...options
  }: ZodFormOptions<Schema>,
) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    ...options,
    constraint: constraint ? constraintOf(constraint) : undefined,
    shouldValidate,
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parse(formData),
  })
}

/**
 * Whether the page is posting a form of `intent` (its button says "Saving…"): until the action answers, or with
 * `untilReloaded` until the page's data has reloaded after it too.
 */
export function usePosting(intent: string, { untilReloaded = false } = {}) {
  const navigation = useNavigation()
  const busy = untilReloaded ? navigation.state !== 'idle' : navigation.state === 'submitting'
  return busy && navigation.formData?.get('intent') === intent
}

/**
 * A form's refusal that belongs to no one field, as an alert the form is described by. `fields` are fields whose
 * messages show here too, where the form has no room for them at the field; the same message shows once.
 */
export function FormErrors({
  form,
  fields = [],
}: {
  form: { errorId: string; errors?: string[] | undefined }
  fields?: ConformField[]
}) {
  const messages = [...new Set([...(form.errors ?? []), ...fields.flatMap((field) => field.errors ?? [])])]
  if (!messages.length) return null
  return (
    <Alert tone="error" id={form.errorId}>
      {messages.join(' ')}
    </Alert>
  )
}
