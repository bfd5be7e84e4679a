// A webhook receiver on 127.0.0.1 for the tests of the webhook worker and of the endpoints' settings: it records each
// request and answers with the statuses it is given, so a test can make a receiver fail once and then succeed.
import type http from 'node:http'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Received = { headers: http.IncomingHttpHeaders; body: string }

/** A receiver answering each request with the next status of `statuses` (then 200), after `delayMs` if given. */
export async function receiver(statuses: number[], { delayMs = 0 }: { delayMs?: number } = {}) {
  const received: Received[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      received.push({ headers: request.headers, body })
      const status = statuses.shift() ?? 200
      setTimeout(() => {
        response.writeHead(status)
        response.end('ok')
      }, delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
