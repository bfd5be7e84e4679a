// The company as its customers see it (issue 31 item 5, issue 38 item 8, docs/decisions/044-company-brand.md): the
// rules the browser and the server share for the logo file, and the logo's public address. Pure: no database.
import type { EmailBrandProps } from '~/mail/templates'

/** A logo file may be at most this large (checked in the browser and again on the server). */
export const MAX_LOGO_BYTES = 1024 * 1024

export const LOGO_MESSAGES = {
  noFile: 'Choose a PNG or JPEG file.',
  notImage: 'The logo must be a PNG or JPEG image.',
  tooLarge: 'The logo must be 1 MB or smaller.',
  tooManyPixels: 'The logo must be at most 5000 × 5000 pixels.',
  failed: 'Unable to save the logo. Try again.',
  saved: 'Logo saved.',
  removed: 'Logo removed.',
} as const

export type LogoFormat = 'png' | 'jpeg'

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** What the file's first bytes say it is (its name and declared type are not trusted): PNG, JPEG, or neither. */
export function logoFormatOf(bytes: Uint8Array): LogoFormat | null {
  if (PNG_SIGNATURE.every((byte, index) => bytes[index] === byte)) return 'png'
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  return null
}

/**
 * Stored logos: `logos/<32 hex>.png|jpg`, the hex part 128 random bits. The file name is also the logo's address, so
 * the address names no company (the portal sends no company ids) and cannot be guessed.
 */
const LOGO_KEY = /^logos\/([0-9a-f]{32}\.(?:png|jpg))$/

/**
 * The logo's address: `/logo/<token>.<png|jpg>`. A new upload is a new file, so an address never changes what it
 * shows (cached for a year); an old or guessed address is a 404.
 */
export function companyLogoPath(logoKey: string | null | undefined): string | null {
  const match = logoKey ? LOGO_KEY.exec(logoKey) : null
  return match ? `/logo/${match[1]}` : null
}

/** The storage key an address's file names (null when the file name is not one of ours). */
export function logoKeyFor(file: string): string | null {
  const key = `logos/${file}`
  return LOGO_KEY.test(key) ? key : null
}

export function logoContentType(logoKey: string) {
  return logoKey.endsWith('.png') ? 'image/png' : 'image/jpeg'
}

/** The mailing address as lines (blank lines dropped), as the invoice prints it. */
export function addressLines(address: string | null | undefined): string[] {
  return (address ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
}

/** The inline image a customer email carries its company's logo as (`cid:company-logo`). */
export const EMAIL_LOGO_CID = 'company-logo'

/**
 * How a customer email goes out as its company (decision 044): From its name (at MAIL_FROM's address), Reply-To its
 * email when set, and its logo as an inline attachment read from storage when the email is sent.
 */
export function customerEmailBrand(company: { name: string; email: string | null; logoKey: string | null }) {
  const logo = company.logoKey && companyLogoPath(company.logoKey) ? company.logoKey : null
  return {
    brand: { companyName: company.name, logoSrc: logo ? `cid:${EMAIL_LOGO_CID}` : null } satisfies EmailBrandProps,
    fromName: company.name,
    replyTo: company.email,
    attachments: logo
      ? [
          {
            cid: EMAIL_LOGO_CID,
            filename: logo.endsWith('.png') ? 'logo.png' : 'logo.jpg',
            storageKey: logo,
            contentType: logoContentType(logo),
          },
        ]
      : null,
  }
}
