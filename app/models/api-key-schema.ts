// "Create API key": its rules and labels, shared by the form (browser), the action and the model.
import { z } from 'zod'
import { API_KEY_SCOPES, type ApiKeyScope } from '~/utils/api-fields'

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = { read: 'Read only', write: 'Read and write' }

const NAME_REQUIRED = 'Enter a name for the key.'

/** "Create API key": shared by the form, the action and the tests. */
export const CreateApiKeySchema = z.object({
  name: z.string({ error: NAME_REQUIRED }).trim().min(1, NAME_REQUIRED).max(100, 'Use at most 100 characters.'),
  scope: z.enum(API_KEY_SCOPES, { error: 'Choose what the key may do.' }),
})
