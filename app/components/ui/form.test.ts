// The one form-level error display: the form's own refusal, and fields' messages where a form shows them together.
import { getInputProps, type SubmissionResult } from '@conform-to/react'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ConformField } from './field'
import { FormErrors, useZodForm } from './form'

const field = (errors?: string[]) => ({ errors }) as ConformField

describe('FormErrors', () => {
  it('draws nothing without a message', () => {
    expect(renderToString(createElement(FormErrors, { form: { errorId: 'f-error' } }))).toBe('')
    expect(renderToString(createElement(FormErrors, { form: { errorId: 'f-error', errors: [] } }))).toBe('')
  })

  it("is the alert the form is described by (Conform's form error id)", () => {
    const html = renderToString(
      createElement(FormErrors, { form: { errorId: 'login-error', errors: ['Invalid email or password.'] } }),
    )
    expect(html).toMatch(/^<div id="login-error" role="alert"[^>]*>Invalid email or password\.<\/div>$/)
  })

  it("adds the given fields' messages after the form's, each message once", () => {
    const html = renderToString(
      createElement(FormErrors, {
        form: { errorId: 'reading-error', errors: ['Not saved.'] },
        fields: [field(['Fill in all readings.']), field(['Fill in all readings.']), field()],
      }),
    )
    expect(html).toContain('>Not saved. Fill in all readings.</div>')
  })
})

// Conform is patched to read a field's metadata once per form state (patches/, decision 074): what the inputs say
// must not change — id, name, required, the value sent back and the error wired to the input.
const Schema = z.object({ change: z.string().min(1), reason: z.string().max(200) })

function AdjustForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useZodForm(Schema, { id: 'adjust-1', lastResult })
  return createElement(
    'form',
    { id: form.id },
    createElement('input', getInputProps(fields.change, { type: 'text' })),
    createElement('input', getInputProps(fields.reason, { type: 'text' })),
    // The same field read again, as a label would.
    createElement('label', { htmlFor: fields.change.id }, fields.change.errors?.join(' ') ?? 'Change'),
  )
}

describe('useZodForm', () => {
  it('draws each input with its id, name and whether it is required, before anything is sent', () => {
    const html = renderToString(createElement(AdjustForm))
    expect(html).toBe(
      '<form id="adjust-1">' +
        '<input required="" id="adjust-1-change" form="adjust-1" type="text" name="change"/>' +
        '<input required="" id="adjust-1-reason" form="adjust-1" type="text" name="reason"/>' +
        '<label for="adjust-1-change">Change</label></form>',
    )
  })

  it("keeps what was sent and wires the action's error to its input", () => {
    const lastResult: SubmissionResult<string[]> = {
      status: 'error',
      initialValue: { change: '+x', reason: 'delivery' },
      error: { change: ['Enter a whole number, like +12 or -2.'] },
    }
    const html = renderToString(createElement(AdjustForm, { lastResult }))
    expect(html).toBe(
      '<form id="adjust-1">' +
        '<input required="" id="adjust-1-change" form="adjust-1" aria-invalid="true" ' +
        'aria-describedby="adjust-1-change-error" type="text" name="change" value="+x"/>' +
        '<input required="" id="adjust-1-reason" form="adjust-1" type="text" name="reason" value="delivery"/>' +
        '<label for="adjust-1-change">Enter a whole number, like +12 or -2.</label></form>',
    )
  })
})
