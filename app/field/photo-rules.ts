// The photo limits the phone checks before queueing (a file that would be refused is never stored or sent) and the
// server checks again on upload (app/models/photo.server.ts): one set of numbers and messages for both.

export const MAX_PHOTO_BYTES = 15 * 1024 * 1024

export const PHOTO_FILE_MESSAGES = {
  tooLarge: 'Photos must be 15 MB or smaller.',
  notImage: 'Choose an image file (JPEG, PNG, WebP or HEIC).',
} as const

/** Some phones give HEIC photos no MIME type: the extension decides then. */
const IMAGE_EXTENSION = /\.(jpe?g|png|webp|heic|heif|avif|gif)$/i

/** Why the browser refuses `file` before queueing it, or null when it may go (the server decodes it to be sure). */
export function checkPhotoFile(file: Pick<File, 'type' | 'size' | 'name'>): string | null {
  const looksLikeImage = file.type ? file.type.startsWith('image/') : IMAGE_EXTENSION.test(file.name)
  if (!looksLikeImage || file.type === 'image/svg+xml') return PHOTO_FILE_MESSAGES.notImage
  if (file.size === 0) return PHOTO_FILE_MESSAGES.notImage
  if (file.size > MAX_PHOTO_BYTES) return PHOTO_FILE_MESSAGES.tooLarge
  return null
}
