// Any other /api/v1 path: the API's own 404, never the site's page.
import { apiError } from '~/features/api/api-handler.server'

export function loader() {
  return apiError(404, 'not_found', 'No such API path; see /api/v1/openapi.json.')
}

export function action() {
  return apiError(404, 'not_found', 'No such API path; see /api/v1/openapi.json.')
}
