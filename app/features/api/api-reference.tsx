// The readable API reference (/developers), drawn from the OpenAPI document itself: every operation with its
// parameters, body and answers, then every schema's fields. No outside script or stylesheet.
import { ScrollRegion } from '~/components/ui/scroll-region'

type Json = Record<string, unknown>

export type ReferenceDocument = {
  info: { title: string; description?: string }
  servers: { url: string }[]
  paths: Record<string, Record<string, Json>>
  components: { schemas: Record<string, Json> }
}

const refName = (schema: unknown) => {
  const ref = (schema as { $ref?: string } | undefined)?.$ref
  return ref ? ref.split('/').pop() : undefined
}

function typeText(schema: Json | undefined): string {
  if (!schema) return 'any'
  const name = refName(schema)
  if (name) return name
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ')
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map(typeText).join(' | ')
  if (schema.type === 'array') return `${typeText(schema.items as Json)}[]`
  if (Array.isArray(schema.type)) return schema.type.join(' | ')
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : ''
  return `${String(schema.type ?? 'any')}${format}`
}

export function ApiReference({ document }: { document: ReferenceDocument }) {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  )
  return (
    <div className="space-y-10">
      <section aria-labelledby="operations" className="space-y-4">
        <h2 id="operations" className="text-2xl font-semibold">
          Operations
        </h2>
        <p className="text-slate-700">
          Base URL <code>{document.servers[0]?.url}</code>. The machine-readable document is{' '}
          <a className="underline" href="/api/v1/openapi.json">
            /api/v1/openapi.json
          </a>
          .
        </p>
        {operations.map(({ path, method, operation }) => (
          <Operation key={`${method} ${path}`} path={path} method={method} operation={operation} />
        ))}
      </section>
      <section aria-labelledby="schemas" className="space-y-4">
        <h2 id="schemas" className="text-2xl font-semibold">
          Schemas
        </h2>
        {Object.entries(document.components.schemas).map(([name, schema]) => (
          <SchemaTable key={name} name={name} schema={schema} />
        ))}
      </section>
    </div>
  )
}

function Operation({ path, method, operation }: { path: string; method: string; operation: Json }) {
  const parameters = (operation.parameters ?? []) as Json[]
  const body = refName(
    ((operation.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] &&
      (((operation.requestBody as Json).content as Json)['application/json'] as Json).schema,
  )
  const responses = Object.entries((operation.responses ?? {}) as Record<string, Json>)
  return (
    <article className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
      <h3 className="font-mono text-base font-semibold break-all">
        <span className="mr-2 uppercase text-sky-800">{method}</span>
        {path}
      </h3>
      <p className="text-slate-700">{String(operation.summary ?? '')}</p>
      {parameters.length ? (
        <ul className="space-y-1 text-sm">
          {parameters.map((parameter) => (
            <li key={`${parameter.in}-${parameter.name}`}>
              <code>{String(parameter.name)}</code> ({String(parameter.in)}
              {parameter.required ? ', required' : ''}): {typeText(parameter.schema as Json)}
              {parameter.description ? ` — ${String(parameter.description)}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {body ? (
        <p className="text-sm">
          Body: <a href={`#schema-${body}`}>{body}</a>
        </p>
      ) : null}
      <p className="text-sm text-slate-700">
        Answers:{' '}
        {responses.map(([status, response], index) => {
          const schema = refName(
            ((response.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema,
          )
          return (
            <span key={status}>
              {index > 0 ? ', ' : ''}
              {status}
              {schema && schema !== 'Error' ? (
                <>
                  {' '}
                  <a href={`#schema-${schema}`}>{schema}</a>
                </>
              ) : null}
            </span>
          )
        })}
      </p>
    </article>
  )
}

function SchemaTable({ name, schema }: { name: string; schema: Json }) {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Json>)
  const required = new Set((schema.required ?? []) as string[])
  return (
    <article id={`schema-${name}`} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
      <h3 className="font-mono text-base font-semibold">{name}</h3>
      <ScrollRegion label={`Fields of ${name}`}>
        <table className="w-full text-left text-sm">
          <thead className="text-slate-600">
            <tr>
              <th className="pr-3 font-medium">Field</th>
              <th className="pr-3 font-medium">Type</th>
              <th className="font-medium">Required</th>
            </tr>
          </thead>
          <tbody>
            {properties.map(([field, value]) => (
              <tr key={field} className="border-t border-slate-100">
                <td className="pr-3 font-mono">{field}</td>
                <td className="pr-3">{typeText(value)}</td>
                <td>{required.has(field) ? 'Yes' : 'No'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </article>
  )
}
