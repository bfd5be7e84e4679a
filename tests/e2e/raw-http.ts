// A POST sent over a raw socket with `Transfer-Encoding: chunked` and no Content-Length — what an attacker sends to
// get around a header check (fetch and Playwright always declare the length). It keeps sending until the server
// answers or `plannedBytes` went out, and records how much had been sent when the answer came.
import net from 'node:net'

export type ChunkedOutcome = {
  /** The status line's code, or 0 when the connection closed without an answer. */
  status: number
  headers: Record<string, string>
  body: string
  /** Body bytes written to the socket when the first byte of the answer arrived. */
  sentWhenAnswered: number
  /** Whether the server closed the connection afterwards (it must not read the rest). */
  closedByServer: boolean
}

/** Decodes a chunked body (answers here are small and complete). */
function dechunk(raw: string) {
  let body = ''
  let rest = raw
  for (;;) {
    const lineEnd = rest.indexOf('\r\n')
    if (lineEnd < 0) return body
    const size = Number.parseInt(rest.slice(0, lineEnd), 16)
    if (!size) return body
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size)
    rest = rest.slice(lineEnd + 2 + size + 2)
  }
}

/** Resolves once a complete answer (headers and a finished body) has arrived. */
function answered(socket: net.Socket, received: () => string) {
  const complete = () => {
    const text = received()
    const headerEnd = text.indexOf('\r\n\r\n')
    if (headerEnd < 0) return false
    const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, headerEnd))?.[1]
    return length ? text.length - headerEnd - 4 >= Number(length) : text.endsWith('0\r\n\r\n')
  }
  return new Promise<void>((resolve) => {
    if (complete() || socket.destroyed) return resolve()
    const check = () => {
      if (!complete() && !socket.destroyed) return
      socket.off('data', check)
      socket.off('close', check)
      resolve()
    }
    socket.on('data', check)
    socket.on('close', check)
  })
}

export async function postChunked(
  baseURL: string,
  path: string,
  {
    headers = {},
    plannedBytes = 64 * 1024 * 1024,
    awaitClose = true,
  }: {
    headers?: Record<string, string>
    plannedBytes?: number
    /** Wait (up to 10 s) for the server to close the connection; off when it is expected to keep it open. */
    awaitClose?: boolean
  } = {},
): Promise<ChunkedOutcome> {
  const { hostname, port, origin } = new URL(baseURL)
  const socket = net.connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname)
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  let received = ''
  let sent = 0
  let sentWhenAnswered = -1
  let closed = false
  socket.setEncoding('latin1')
  socket.on('data', (data: string) => {
    if (sentWhenAnswered < 0) sentWhenAnswered = sent
    received += data
  })
  // Writes fail once the server closes: that is the point.
  socket.on('error', () => {})
  const closedPromise = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closed = true
      resolve()
    }),
  )
  const head = {
    Host: new URL(baseURL).host,
    Origin: origin,
    'Transfer-Encoding': 'chunked',
    'Content-Type': 'application/x-www-form-urlencoded',
    ...headers,
  }
  socket.write(
    `POST ${path} HTTP/1.1\r\n${Object.entries(head)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`,
  )
  const chunk = Buffer.alloc(64 * 1024, 'a')
  const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
  while (sent < plannedBytes && sentWhenAnswered < 0 && !closed) {
    const flushed = socket.write(frame)
    sent += chunk.length
    if (!flushed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off('drain', done)
          socket.off('close', done)
          socket.off('data', done)
          resolve()
        }
        socket.on('drain', done)
        socket.on('close', done)
        socket.on('data', done)
      })
    }
  }
  if (sentWhenAnswered < 0 && !closed) socket.write('0\r\n\r\n')
  // The server either closes (body refused) or, had it read everything, would answer and keep the connection.
  const closedByServer = await Promise.race([
    closedPromise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), awaitClose ? 10_000 : 0)),
  ])
  if (!awaitClose) await answered(socket, () => received)
  socket.destroy()
  const headerEnd = received.indexOf('\r\n\r\n')
  const headerLines = received.slice(0, Math.max(headerEnd, 0)).split('\r\n')
  const status = Number(headerLines[0]?.split(' ')[1] ?? 0)
  const answerHeaders = Object.fromEntries(
    headerLines.slice(1).map((line) => {
      const colon = line.indexOf(':')
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]
    }),
  )
  const rawBody = headerEnd >= 0 ? received.slice(headerEnd + 4) : ''
  const body = answerHeaders['transfer-encoding'] === 'chunked' ? dechunk(rawBody) : rawBody
  return { status, headers: answerHeaders, body, sentWhenAnswered, closedByServer }
}
