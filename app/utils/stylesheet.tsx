import stylesheetUrl from '~/app.css?url'

// The built stylesheet is one file whose name carries its content hash (/assets/app-<hash>.css), served with a
// year-long immutable cache (server/app.mjs): a page no longer carries ~36 KB of CSS inline, and after the first
// visit the browser does not ask for it again (issue 22; docs/decisions/007 records the earlier inline choice).
export { stylesheetUrl }

export function Stylesheet() {
  return <link rel="stylesheet" href={stylesheetUrl} />
}
