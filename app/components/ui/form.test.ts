// The one form-level error display: the form's own refusal, and fields' messages where a form shows them together.
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { ConformField } from './field'
import { FormErrors } from './form'

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
