import '~/utils/password-policy.server'
import { describe, expect, it } from 'vitest'
import { CustomerSetupSchema } from './customer-setup-schema'

const filled = {
  fullName: ' Marco Ruiz ',
  phone: '(813) 555-0100',
  address: ' 1 Palm Way ',
  password: 'tide-pool-lantern-7',
  confirmPassword: 'tide-pool-lantern-7',
}

describe('CustomerSetupSchema', () => {
  it('takes the name, phone, address and a new password typed twice alike', () => {
    const parsed = CustomerSetupSchema.safeParse(filled)
    expect(parsed.success).toBe(true)
    expect(parsed.data).toMatchObject({ fullName: 'Marco Ruiz', address: '1 Palm Way', password: filled.password })
  })

  it('asks for what is missing, and for the same password twice', () => {
    const messages = (value: Record<string, string>) =>
      CustomerSetupSchema.safeParse(value).error?.issues.map((issue) => issue.message) ?? []
    expect(messages({ ...filled, fullName: ' ' })).toContain('Enter your full name.')
    expect(messages({ ...filled, address: '' })).toContain('Enter your service address.')
    expect(messages({ ...filled, password: '' })).toContain('Please choose a password so you can log in later.')
    expect(messages({ ...filled, confirmPassword: 'something-else-1' })).toContain('Passwords do not match.')
  })
})
