// GET /api/v1/openapi.json: the API's OpenAPI 3.1 document, generated from its Zod schemas. Public, like the
// reference page (/developers) drawn from it.
import { openApiDocument } from '~/features/api/openapi.server'
import { env } from '~/utils/env.server'

export function loader() {
  return Response.json(openApiDocument(env().APP_URL), {
    headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
  })
}
