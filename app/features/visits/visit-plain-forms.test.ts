// The visit page's notes, checklist and photo upload as plain forms (no JavaScript): Conform forms with "Save notes" and "Save
// checklist", the action's refusal shown at its field, or above the buttons when it is the form's as a whole; the
// photo upload posts to the photo route, which answers with the page's flash message.
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import { NOTE_MAX } from '~/field/changes'
import { VisitChecklist } from './visit-checklist'
import { VisitNotes } from './visit-notes'
import { VisitPhotos } from './visit-photos'

function draw(Component: () => ReturnType<typeof createElement>) {
  const Stub = createRoutesStub([{ path: '/', Component }])
  return renderToString(createElement(Stub, { initialEntries: ['/'] })).replaceAll('<!-- -->', '')
}

const queued = async () => ({ ok: true as const, key: 'queued-1' })
const TOO_LONG = `Keep the note under ${NOTE_MAX} characters.`
const ITEM = { id: '6f1c1d5e-0000-4000-8000-000000000001', label: 'Skim surface', photoRequired: false }

function notes(lastResult?: Parameters<typeof VisitNotes>[0]['lastResult']) {
  return draw(() =>
    createElement(VisitNotes, {
      officeNote: 'Pump seal weeping.',
      customerNote: '',
      waiting: new Set<'office' | 'customer'>(),
      formKey: 'key-1',
      lastResult,
      onSave: queued,
    }),
  )
}

function checklist(lastResult?: Parameters<typeof VisitChecklist>[0]['lastResult']) {
  return draw(() =>
    createElement(VisitChecklist, {
      items: [ITEM],
      ticked: new Set([ITEM.id]),
      formKey: 'key-2',
      lastResult,
      onToggle: queued,
    }),
  )
}

describe('VisitNotes without JavaScript', () => {
  it('is a form of the two labeled notes with "Save notes"', () => {
    const html = notes()
    expect(html).toMatch(/<form[^>]*id="visit-notes"/)
    expect(html).toMatch(/<label for="visit-notes-officeNote"[^>]*>Note for office<\/label>/)
    expect(html).toMatch(/<textarea[^>]*name="officeNote"[^>]*>Pump seal weeping.<\/textarea>/)
    expect(html).toMatch(/<textarea[^>]*name="customerNote"/)
    expect(html).toContain('Save notes')
    expect(html).not.toContain('aria-invalid')
  })

  it("shows a note's refusal at that note, and the form's own above the button", () => {
    const atField = notes({ status: 'error', error: { officeNote: [TOO_LONG] } })
    expect(atField).toMatch(new RegExp(`<p id="visit-notes-officeNote-error"[^>]*>${TOO_LONG}</p>`))
    expect(atField).toMatch(/<textarea[^>]*aria-describedby="[^"]*visit-notes-officeNote-error"/)
    expect(atField).not.toContain('role="alert"')
    const whole = notes({ status: 'error', error: { '': ['This visit was already completed.'] } })
    expect(whole).toMatch(/role="alert"[^>]*>This visit was already completed.</)
  })
})

describe('VisitChecklist without JavaScript', () => {
  it('is a form of the ticks with "Save checklist"', () => {
    const html = checklist()
    expect(html).toMatch(/<form[^>]*id="visit-checklist"/)
    expect(html).toMatch(new RegExp(`type="checkbox"[^>]*name="itemId" checked="" value="${ITEM.id}"`))
    expect(html).toContain('Save checklist')
  })

  it("shows a tick's refusal under the list, and the form's own above the button", () => {
    const tampered = checklist({ status: 'error', error: { 'itemId[0]': ['This checklist item does not exist.'] } })
    expect(tampered).toMatch(/<p id="visit-checklist-itemId-error"[^>]*>This checklist item does not exist.<\/p>/)
    expect(tampered).toMatch(/aria-describedby="visit-checklist-itemId-error"/)
    const whole = checklist({ status: 'error', error: { '': ['This visit was already completed.'] } })
    expect(whole).toMatch(/role="alert"[^>]*>This visit was already completed.</)
  })
})

describe('VisitPhotos without JavaScript', () => {
  it('is a multipart form of the label and the photo, posted to the photo route', () => {
    const html = draw(() => createElement(VisitPhotos, { visitId: 'visit-1', photos: [], readOnly: false }))
    expect(html).toMatch(
      /<form[^>]*id="photo-upload"[^>]*action="\/app\/visits\/visit-1\/photos"|<form[^>]*action="\/app\/visits\/visit-1\/photos"[^>]*id="photo-upload"/,
    )
    expect(html).toContain('encType="multipart/form-data"')
    // No JavaScript runs it, so the browser checks that a photo was chosen.
    expect(html).not.toMatch(/<form[^>]*id="photo-upload"[^>]*noValidate/)
    expect(html).toMatch(/<input type="radio"[^>]*name="label" checked="" value="before"/)
    expect(html).toMatch(
      /<label for="photo-upload-photo"[^>]*>Photo<\/label><input id="photo-upload-photo" type="file" accept="image\/\*" required=""[^>]*name="photo"/,
    )
    expect(html).toContain('Upload photo')
  })
})
