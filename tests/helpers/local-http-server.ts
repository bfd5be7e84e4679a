// A throwaway HTTP server on 127.0.0.1 for adapters of outside services (OSRM, the geocoder): the tests give it the
// answers of the real API and read back the requests it received.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type ReceivedRequest = { method: string; url: URL; headers: http.IncomingHttpHeaders }
export type LocalServer = { url: string; requests: ReceivedRequest[]; close: () => Promise<void> }

export async function startLocalServer(
  answer: (request: ReceivedRequest, response: http.ServerResponse) => void,
): Promise<LocalServer> {
  const requests: ReceivedRequest[] = []
  const server = http.createServer((incoming, response) => {
    const request = {
      method: incoming.method ?? '',
      url: new URL(incoming.url ?? '/', 'http://127.0.0.1'),
      headers: incoming.headers,
    }
    requests.push(request)
    answer(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        // A test may leave a request hanging on purpose (a timeout): cut it off.
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export function sendJson(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}
