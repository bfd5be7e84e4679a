// The job page's "Photos" card (SPEC §2): a Before and an After picker with a local preview,
// an upload with progress, and the current photo. Each picker is a real multipart form that
// posts to the photo route, so it works before (or without) JavaScript; with JavaScript the
// upload goes through XMLHttpRequest, the only browser API that reports upload progress.
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import { Alert } from './ui/alert'
import { Button } from './ui/button'
import { Card } from './ui/card'

export type JobPhotoUrls = { before: string | null; after: string | null }

/** Mirrors the server's limit so an oversized file is refused before it is sent. */
const MAX_PHOTO_BYTES = 15 * 1024 * 1024

/**
 * The messages the photo route may put in `?photoError=`. Only these are shown, so a crafted
 * link cannot make the page display text of someone else's choosing.
 */
export const PHOTO_ERROR_MESSAGES = [
  'Photos must be 15 MB or smaller.',
  'Choose an image file (JPEG, PNG, WebP or HEIC).',
  'Photos must be 40 megapixels or smaller.',
  'Choose a photo to upload.',
  'Unable to save photo. Try again.',
] as const

const TOO_LARGE = PHOTO_ERROR_MESSAGES[0]
const NOT_IMAGE = PHOTO_ERROR_MESSAGES[1]
const NO_FILE = PHOTO_ERROR_MESSAGES[3]
const UPLOAD_FAILED = 'Unable to upload photo. Check your connection and try again.'
const UPLOADED = 'Photo uploaded.'

function thumbnailOf(url: string) {
  return `${url}${url.includes('?') ? '&' : '?'}size=thumb`
}

export function JobPhotos({
  jobId,
  photos,
  readOnly = false,
}: {
  jobId: string
  photos: JobPhotoUrls
  /** Platform admins look without changing anything: the photos, no pickers. */
  readOnly?: boolean
}) {
  const [searchParams] = useSearchParams()
  const [uploaded, setUploaded] = useState<Partial<JobPhotoUrls>>({})
  const [loaded, setLoaded] = useState(photos)
  // Fresh loader data (a reload, a revalidation) wins over what this page uploaded; adjusting
  // state while rendering is React's way to reset it when a prop changes.
  if (loaded.before !== photos.before || loaded.after !== photos.after) {
    setLoaded(photos)
    setUploaded({})
  }
  const current = { before: uploaded.before ?? photos.before, after: uploaded.after ?? photos.after }

  // The outcome of a form posted without JavaScript comes back in the URL.
  const urlError = searchParams.get('photoError')
  const shownUrlError = PHOTO_ERROR_MESSAGES.find((message) => message === urlError)
  const urlSaved = searchParams.get('photo') === 'saved'
  const usedScript = Object.keys(uploaded).length > 0

  return (
    <Card className="space-y-4" aria-labelledby="job-photos-heading">
      <h2 id="job-photos-heading" className="text-lg font-semibold">
        Photos
      </h2>
      {!current.before && !current.after ? <p className="text-sm text-slate-600">No photos uploaded yet.</p> : null}
      {!usedScript && shownUrlError ? <Alert tone="error">{shownUrlError}</Alert> : null}
      {!usedScript && urlSaved && !shownUrlError ? <Alert tone="success">{UPLOADED}</Alert> : null}
      {readOnly ? (
        <div className="grid gap-5 sm:grid-cols-2">
          {(['before', 'after'] as const).map((kind) =>
            current[kind] ? (
              <a key={kind} href={current[kind] ?? undefined} className="block space-y-1">
                <span className="text-sm font-medium capitalize">{kind}</span>
                <img
                  src={thumbnailOf(current[kind] ?? '')}
                  alt={`${kind === 'before' ? 'Before' : 'After'} the service visit (opens full size)`}
                  className="w-full rounded-lg border border-slate-200"
                  loading="lazy"
                />
              </a>
            ) : null,
          )}
        </div>
      ) : (
        <div className="grid gap-5 sm:grid-cols-2">
          <PhotoPicker
            jobId={jobId}
            kind="before"
            title="Before"
            url={current.before}
            onUploaded={(url) => setUploaded((u) => ({ ...u, before: url }))}
          />
          <PhotoPicker
            jobId={jobId}
            kind="after"
            title="After"
            url={current.after}
            onUploaded={(url) => setUploaded((u) => ({ ...u, after: url }))}
          />
        </div>
      )}
    </Card>
  )
}

type UploadReply = { ok: true; url: string } | { ok: false; message: string }

function isUploadReply(value: unknown): value is UploadReply {
  if (!value || typeof value !== 'object') return false
  const reply = value as Record<string, unknown>
  return (
    (reply.ok === true && typeof reply.url === 'string') || (reply.ok === false && typeof reply.message === 'string')
  )
}

function PhotoPicker({
  jobId,
  kind,
  title,
  url,
  onUploaded,
}: {
  jobId: string
  kind: 'before' | 'after'
  title: string
  url: string | null
  onUploaded: (url: string) => void
}) {
  const inputId = useId()
  const formRef = useRef<HTMLFormElement>(null)
  const requestRef = useRef<XMLHttpRequest | null>(null)
  const [file, setFile] = useState<File | null>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [previewFailed, setPreviewFailed] = useState(false)
  const [progress, setProgress] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const action = `/app/jobs/${jobId}/photos/${kind}`
  const label = title.toLowerCase()

  // Object URLs hold the file in memory until revoked.
  useEffect(() => {
    return () => {
      if (preview) URL.revokeObjectURL(preview)
    }
  }, [preview])
  // Leaving the page mid-upload cancels it rather than updating a page that is gone.
  useEffect(() => () => requestRef.current?.abort(), [])

  function choose(chosen: File | null) {
    setSaved(false)
    setError(null)
    setFile(chosen)
    setPreview(chosen ? URL.createObjectURL(chosen) : null)
    setPreviewFailed(false)
    if (!chosen) return
    // Quick checks for a clear message at once; the server checks the content regardless.
    if (chosen.size > MAX_PHOTO_BYTES) setError(TOO_LARGE)
    else if (chosen.type && !chosen.type.startsWith('image/')) setError(NOT_IMAGE)
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (progress !== null) return
    if (!file) {
      setError(NO_FILE)
      return
    }
    if (error) return
    const body = new FormData()
    body.append('photo', file, file.name)
    const request = new XMLHttpRequest()
    requestRef.current = request
    request.open('POST', action)
    request.setRequestHeader('Accept', 'application/json')
    request.upload.onprogress = (e) => {
      if (e.lengthComputable) setProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)))
    }
    request.onload = () => {
      requestRef.current = null
      setProgress(null)
      let reply: unknown = null
      try {
        reply = JSON.parse(request.responseText)
      } catch {
        reply = null
      }
      if (!isUploadReply(reply)) {
        setError(UPLOAD_FAILED)
        return
      }
      if (!reply.ok) {
        setError(reply.message)
        return
      }
      formRef.current?.reset()
      choose(null)
      setSaved(true)
      onUploaded(reply.url)
    }
    request.onerror = () => {
      requestRef.current = null
      setProgress(null)
      setError(UPLOAD_FAILED)
    }
    setError(null)
    setSaved(false)
    setProgress(0)
    request.send(body)
  }

  const uploading = progress !== null
  return (
    <div className="space-y-3">
      <h3 className="font-semibold">{title}</h3>
      {url ? (
        <a href={url} target="_blank" rel="noopener" className="block w-fit">
          <img
            src={thumbnailOf(url)}
            alt={`${title} the service visit (opens full size)`}
            className="h-40 w-auto max-w-full rounded-lg border border-slate-200 object-cover"
          />
        </a>
      ) : null}
      <form
        ref={formRef}
        method="post"
        action={action}
        encType="multipart/form-data"
        onSubmit={submit}
        className="space-y-3"
      >
        <div className="space-y-1">
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
            {url ? `Replace ${label} photo` : `${title} photo`}
          </label>
          <input
            id={inputId}
            type="file"
            name="photo"
            accept="image/*"
            capture="environment"
            required
            disabled={uploading}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${inputId}-error` : undefined}
            onChange={(e) => choose(e.currentTarget.files?.[0] ?? null)}
            className="block w-full min-h-11 text-sm text-slate-700 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:font-semibold file:text-brand-800 hover:file:bg-brand-100"
          />
        </div>
        {preview && !previewFailed ? (
          <img
            src={preview}
            alt={`Preview: ${label} the service visit, not uploaded yet`}
            onError={() => setPreviewFailed(true)}
            className="h-40 w-auto max-w-full rounded-lg border border-dashed border-slate-300 object-cover"
          />
        ) : null}
        {preview && previewFailed ? (
          // HEIC files, for one, upload fine but most browsers cannot draw them.
          <p className="text-sm text-slate-600">This browser cannot preview the chosen file.</p>
        ) : null}
        {uploading ? (
          <div className="space-y-1">
            <progress max={100} value={progress} aria-label={`Uploading ${label} photo`} className="w-full" />
            <p className="text-sm text-slate-600">Uploading… {progress}%</p>
          </div>
        ) : null}
        {error ? (
          <Alert tone="error">
            <span id={`${inputId}-error`}>{error}</span>
          </Alert>
        ) : null}
        {saved ? <Alert tone="success">{UPLOADED}</Alert> : null}
        <Button type="submit" variant="secondary" className="w-full" pending={uploading} pendingLabel="Uploading…">
          {`Upload ${label} photo`}
        </Button>
      </form>
    </div>
  )
}
