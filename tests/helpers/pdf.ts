// Reads a PDF as a PDF in tests: its header, its page count and its text (unpdf, pdf.js underneath).
export async function readPdf(bytes: Uint8Array) {
  const { extractText, getDocumentProxy } = await import('unpdf')
  const header = Buffer.from(bytes.subarray(0, 5)).toString('latin1')
  // pdf.js takes the buffer over: give it a copy so the caller's bytes stay readable.
  const document = await getDocumentProxy(new Uint8Array(bytes))
  const { totalPages, text } = await extractText(document, { mergePages: true })
  return { header, pages: totalPages, text: text.replace(/\s+/g, ' ') }
}
