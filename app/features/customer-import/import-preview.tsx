// The import page's preview: what the file makes ("12 customers, 14 service locations, 9 bodies of water"), what
// that changes in the company (new / updated / unchanged), every row's problems in plain words, and "Import".
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import type { ImportPreview } from './import-schema'

export function ImportPreviewCard({
  preview,
  stale,
  importing,
}: {
  preview: ImportPreview
  stale: boolean
  importing: boolean
}) {
  const { problems, problemCount, rowsWithProblems } = preview
  return (
    <Card className="space-y-4" aria-labelledby="import-preview-title">
      <div className="space-y-1">
        <h2 id="import-preview-title" className="text-lg font-semibold text-slate-900">
          Preview
        </h2>
        <p className="text-base font-medium text-slate-900">{preview.counts}</p>
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        {preview.changes.map((change) => (
          <div key={change.label} className="contents">
            <dt className="font-medium text-slate-700">{change.label}</dt>
            <dd className="text-slate-900">{change.text}</dd>
          </div>
        ))}
      </dl>
      {problemCount > 0 ? (
        <section aria-labelledby="import-problems-title" className="space-y-2">
          <h3 id="import-problems-title" className="font-semibold text-danger">
            {rowsWithProblems === 1 ? '1 row has' : `${rowsWithProblems.toLocaleString('en-US')} rows have`} problems
          </h3>
          <ul className="max-h-96 space-y-1 overflow-y-auto rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-slate-900">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
          {problemCount > problems.length ? (
            <p className="text-sm text-slate-600">
              And {(problemCount - problems.length).toLocaleString('en-US')} more. Fix these in the file and upload it
              again to see the rest.
            </p>
          ) : null}
          <p className="text-sm text-slate-700">
            Fix them in the file and upload it again, or import the other rows and leave these out.
          </p>
          <label className="flex min-h-11 items-center gap-3 text-sm font-medium text-slate-800">
            <input type="checkbox" name="skipRowsWithProblems" value="on" className="size-5 accent-brand-700" />
            Skip rows with problems
          </label>
        </section>
      ) : (
        <p className="text-sm text-emerald-800">No problems found.</p>
      )}
      {stale ? (
        <Alert tone="info">You changed the columns since this preview. Choose Preview again before importing.</Alert>
      ) : (
        <Button type="submit" name="intent" value="import" pending={importing} pendingLabel="Importing…">
          Import
        </Button>
      )}
    </Card>
  )
}
