// "Confirm, then post" as the server draws it, before any script runs: a real form whose button posts at once.
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import { ConfirmForm } from './confirm-buttons'

function draw(Component: () => ReturnType<typeof ConfirmForm>) {
  const Stub = createRoutesStub([{ path: '/', Component }])
  return renderToString(createElement(Stub, { initialEntries: ['/'] })).replaceAll('<!-- -->', '')
}

describe('ConfirmForm', () => {
  it('without JavaScript, its button submits the form with its fields (the question is not drawn)', () => {
    const html = draw(() =>
      createElement(ConfirmForm, {
        action: '/app/team',
        fields: { intent: 'deactivate', memberId: 'm-1' },
        label: 'Deactivate',
        question: 'Sign Tyler out and unassign their open visits?',
        confirm: 'Yes, deactivate',
        error: 'Only the owner can do that.',
      }),
    )
    expect(html).toMatch(
      /<form[^>]*action="\/app\/team"[^>]*method="post"|<form[^>]*method="post"[^>]*action="\/app\/team"/,
    )
    expect(html).toContain('<input type="hidden" name="intent" value="deactivate"/>')
    expect(html).toContain('<input type="hidden" name="memberId" value="m-1"/>')
    expect(html).toMatch(/<button type="submit"[^>]*>Deactivate<\/button>/)
    expect(html).not.toContain('Sign Tyler out')
    expect(html).not.toContain('Yes, deactivate')
    expect(html).toMatch(/role="alert"[^>]*>Only the owner can do that\.</)
  })

  it('with a title, the question waits in a closed dialog', () => {
    const html = draw(() =>
      createElement(ConfirmForm, {
        fields: { intent: 'reopen' },
        label: 'Reopen visit',
        title: 'Reopen this visit?',
        question: 'It becomes open work again.',
        confirm: 'Reopen visit',
        cancel: 'Keep it closed',
      }),
    )
    expect(html).toMatch(/<button type="submit"[^>]*>Reopen visit<\/button>/)
    expect(html).toMatch(/<dialog[^>]*><\/dialog>/)
  })
})
