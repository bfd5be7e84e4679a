import { describe, expect, it } from 'vitest'
import { readPage } from './paging'

describe('readPage', () => {
  const at = (search: string) => new URL(`http://x/list${search}`)

  it('reads whole positive numbers and treats anything else as page 1', () => {
    expect(readPage(at('?page=3'))).toBe(3)
    for (const value of ['', '0', '-2', '1.5', 'abc', '1e400', 'Infinity', '99999999999']) {
      expect(readPage(at(`?page=${value}`)), value).toBe(1)
    }
    expect(readPage(at(''))).toBe(1)
  })

  it('reads its own parameter from a request, a URL or search parameters', () => {
    expect(readPage(new Request('http://x/list?messages=4'), 'messages')).toBe(4)
    expect(readPage(at('?history=2&page=9'), 'history')).toBe(2)
    expect(readPage(new URLSearchParams('page=5'))).toBe(5)
  })
})
