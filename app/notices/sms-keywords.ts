// A reply that opts a number out of texts or back in (docs/product.md "Notices"). The words are the ones Twilio acts on
// for long codes (https://www.twilio.com/docs/messaging/tutorials/advanced-opt-out: STOP, STOPALL, UNSUBSCRIBE, CANCEL,
// END, QUIT, and since the FCC's 2025 rule REVOKE and OPTOUT; START, YES, UNSTOP opt back in), so our record agrees
// with what Twilio itself will then refuse or allow. Only a reply that is exactly one keyword counts, as at Twilio:
// "Stop by at noon" is a message, not an opt-out.

export type SmsKeyword = 'opt-out' | 'opt-in' | 'none'

const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'])
const OPT_IN = new Set(['START', 'YES', 'UNSTOP'])

/** What an inbound text's body asks for: case, surrounding whitespace and trailing punctuation do not matter. */
export function smsKeyword(body: string): SmsKeyword {
  // NFKC folds full-width letters ("ＳＴＯＰ" from some phone keyboards) to ASCII before the comparison.
  const word = body
    .normalize('NFKC')
    .trim()
    .replace(/[.!\s]+$/u, '')
    .toUpperCase()
  if (OPT_OUT.has(word)) return 'opt-out'
  if (OPT_IN.has(word)) return 'opt-in'
  return 'none'
}
