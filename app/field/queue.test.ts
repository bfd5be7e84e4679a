// The queue's two decisions that are easy to get wrong: what an answer means (sent, refused for good, try again)
// and what goes next (oldest first, never overtaking a change held for its "Undo" window). The whole queue runs in
// Chromium in tests/e2e (offline work replayed when the connection returns).
import { describe, expect, it } from 'vitest'
import { checkPhotoFile, MAX_PHOTO_BYTES } from './photo-rules'
import { itemsOf, nextToSend, outcomeOf, type QueuedItem, retryDelay } from './queue'

const item = (key: string, visitId: string, extra: Partial<QueuedItem> = {}): QueuedItem => ({
  key,
  visitId,
  seq: Number(key),
  createdAt: '2026-11-26T10:00:00Z',
  state: 'waiting',
  attempts: 0,
  kind: 'change',
  madeAt: '2026-11-26T10:00:00Z',
  change: { type: 'complete' },
  ...(extra as object),
})

describe('outcomeOf', () => {
  it('drops an item only when the server applied it or refused it with a reason', () => {
    expect(outcomeOf(200, { ok: true })).toBe('sent')
    expect(outcomeOf(200, { ok: true, replayed: true })).toBe('sent')
    expect(
      outcomeOf(409, { ok: false, refused: true, message: 'The office gave this visit to another technician.' }),
    ).toEqual({
      refused: 'The office gave this visit to another technician.',
    })
    expect(outcomeOf(401, { ok: false, signedOut: true })).toBe('signed-out')
  })

  it('keeps and retries on server errors, rate limits, odd answers and a 200 that is not ours', () => {
    expect(outcomeOf(500, null)).toBe('retry')
    expect(outcomeOf(503, { ok: false, refused: true, message: 'x' })).toBe('retry')
    expect(outcomeOf(429, {})).toBe('retry')
    expect(outcomeOf(404, '<html>')).toBe('retry')
    expect(outcomeOf(200, '<html>captive portal</html>')).toBe('retry')
  })

  it('shows a 422 as refused with the server’s message: never dropped, never taken as sent, never resent', () => {
    expect(
      outcomeOf(422, { ok: false, code: 'key-reused', message: 'This change was already used for something else' }),
    ).toEqual({ refused: 'This change was already used for something else' })
    expect(
      outcomeOf(422, { ok: false, refused: true, message: 'This change was already used for something else' }),
    ).toEqual({ refused: 'This change was already used for something else' })
    expect(outcomeOf(422, null)).toEqual({ refused: 'The server refused this change.' })
  })

  it('keeps a change the server says another person made, for that person (a shared phone)', () => {
    expect(outcomeOf(409, { ok: false, otherPerson: true, message: 'x' })).toBe('not-yours')
  })
})

describe('itemsOf (a shared phone, decision 030)', () => {
  const mine = item('1', 'a', { ownerId: 'tyler' })
  const theirs = item('2', 'a', { ownerId: 'dina' })
  const nobodys = item('3', 'b')

  it('shows and sends only the signed-in person’s changes, none of another person’s', () => {
    expect(itemsOf([mine, theirs, nobodys], 'tyler')).toEqual([mine])
    expect(itemsOf([mine, theirs, nobodys], 'dina')).toEqual([theirs])
    expect(nextToSend(itemsOf([theirs, mine], 'tyler'), 0)?.key).toBe('1')
  })

  it('has nothing for a page where nobody is known to be signed in, nor for a change without an owner', () => {
    expect(itemsOf([mine, theirs, nobodys], null)).toEqual([])
    expect(itemsOf([nobodys], 'tyler')).toEqual([])
  })
})

describe('nextToSend', () => {
  it('sends the oldest waiting item, skipping refused ones', () => {
    const items = [item('1', 'a', { state: 'refused' }), item('2', 'a'), item('3', 'b')]
    expect(nextToSend(items, 0)?.key).toBe('2')
  })

  it('holds a visit behind its Mark Complete while Undo is offered, and lets other visits through', () => {
    const now = 1_000
    const items = [item('1', 'a', { heldUntil: now + 5_000 }), item('2', 'a'), item('3', 'b')]
    expect(nextToSend(items, now)?.key).toBe('3')
    expect(nextToSend(items, now + 6_000)?.key).toBe('1')
  })

  it('has nothing to send when everything is held or refused', () => {
    expect(nextToSend([item('1', 'a', { heldUntil: 10 }), item('2', 'b', { state: 'refused' })], 0)).toBeNull()
  })
})

describe('checkPhotoFile', () => {
  it('refuses what the server would refuse before anything is stored or sent', () => {
    expect(checkPhotoFile({ name: 'pool.jpg', type: 'image/jpeg', size: 2_000_000 })).toBeNull()
    expect(checkPhotoFile({ name: 'IMG_1.HEIC', type: '', size: 2_000_000 })).toBeNull()
    expect(checkPhotoFile({ name: 'notes.pdf', type: 'application/pdf', size: 2_000 })).toMatch(/image file/)
    expect(checkPhotoFile({ name: 'logo.svg', type: 'image/svg+xml', size: 2_000 })).toMatch(/image file/)
    expect(checkPhotoFile({ name: 'big.jpg', type: 'image/jpeg', size: MAX_PHOTO_BYTES + 1 })).toMatch(/15 MB/)
    expect(checkPhotoFile({ name: 'empty.jpg', type: 'image/jpeg', size: 0 })).toMatch(/image file/)
  })
})

describe('retryDelay', () => {
  it('tries again within a second after the first failed send, doubling up to the 15-second round', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000, 15_000])
  })
})
