// The two optional services of the route page, read from the environment. Unset or blank means "not configured":
// then no request ever leaves the server (straight-line distances; coordinates typed in or imported).

/** OSRM_URL: an OSRM server's base URL (e.g. http://localhost:5000) for road distances. */
export function osrmUrl(source: NodeJS.ProcessEnv = process.env) {
  return serviceUrl(source, 'OSRM_URL')
}

/** GEOCODER_URL: a Nominatim-compatible server's base URL (e.g. http://localhost:8080) for addresses. */
export function geocoderUrl(source: NodeJS.ProcessEnv = process.env) {
  return serviceUrl(source, 'GEOCODER_URL')
}

function serviceUrl(source: NodeJS.ProcessEnv, name: 'OSRM_URL' | 'GEOCODER_URL') {
  const value = source[name]?.trim()
  if (!value) return undefined
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new Error(`${name} must be an http(s) URL such as http://localhost:5000, not ${JSON.stringify(value)}`)
  }
  return value.replace(/\/+$/, '')
}
