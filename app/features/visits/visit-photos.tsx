// The visit page's "Photos" (docs/product.md "The visit"): the visit's photos, each labeled Before / After / Other,
// and "Take photo" / "Choose photo". A photo goes into the phone's queue (app/field/queue.ts) the moment it is taken or
// chosen, and is uploaded from there with its progress shown: leaving the page or losing the signal loses nothing,
// and the queue sends it when it can. Until the page's script runs (or without it) a plain multipart form posts to
// the same route, and each photo's "Remove" is a plain form too.
import { getFormProps } from '@conform-to/react'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { useRevalidator } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { FieldFrame } from '~/components/ui/field'
import { useZodForm } from '~/components/ui/form'
import { cancelQueued, dismissRefused, flushQueue, queuePhoto, type ShownItem, useFieldQueue } from '~/field/queue'
import {
  MAX_VISIT_PHOTOS,
  PHOTO_LABEL_NAMES,
  PHOTO_LABELS,
  PHOTO_MESSAGES,
  type PhotoLabel,
  type VisitPhotoView,
} from '~/models/visit-photo'
import { PhotoUploadSchema } from './visit-photo-schema'

const REMOVE_FAILED = 'Unable to remove the photo. Check your connection and try again.'
const SESSION_ENDED = 'Your session has ended. Log in again to remove photos.'

type QueuedPhoto = Extract<ShownItem, { kind: 'photo' }>

export function VisitPhotos({
  visitId,
  photos,
  readOnly,
}: {
  visitId: string
  photos: VisitPhotoView[]
  /** Platform admins, and visits no longer open: the photos, no pickers, no "Remove". */
  readOnly: boolean
}) {
  const headingId = useId()
  const [hydrated, setHydrated] = useState(false)
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set())
  const [problem, setProblem] = useState<string | null>(null)
  const [chosenLabel, setChosenLabel] = useState<PhotoLabel | null>(null)
  const revalidator = useRevalidator()
  const revalidate = useRef(revalidator.revalidate)
  revalidate.current = revalidator.revalidate
  const queue = useFieldQueue(visitId)
  const queued = queue.items.filter((item): item is QueuedPhoto => item.kind === 'photo')

  useEffect(() => {
    // A photo that reached the server is shown from the server: the app layout started the queue, which reloads
    // the page's data when it sent something.
    setHydrated(true)
  }, [])

  const shown = photos.filter((photo) => !removed.has(photo.id))
  const count = shown.length + queued.filter((item) => item.state !== 'refused').length
  const full = count >= MAX_VISIT_PHOTOS
  // Before when the visit has none yet, else After, until the technician picks one.
  const label = chosenLabel ?? (count === 0 ? 'before' : 'after')

  async function add(file: File | undefined) {
    setProblem(null)
    if (!file) return
    if (full) {
      setProblem(PHOTO_MESSAGES.tooMany)
      return
    }
    const outcome = await queuePhoto(visitId, file, label)
    if (!outcome.ok) setProblem(outcome.message)
  }

  return (
    <Card id="photos" className="scroll-mt-4 space-y-4" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          Photos
        </h2>
        {count > 0 ? (
          <span className="text-sm text-slate-600">
            {count} of {MAX_VISIT_PHOTOS}
          </span>
        ) : null}
      </div>

      {shown.length === 0 && queued.length === 0 ? (
        <p className="text-sm text-slate-600">No photos yet.</p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Photos of this visit">
          {shown.map((photo, index) => (
            <SavedPhoto
              key={photo.id}
              photo={photo}
              position={`${index + 1} of ${shown.length}`}
              readOnly={readOnly}
              hydrated={hydrated}
              onRemoved={() => {
                setRemoved((ids) => new Set(ids).add(photo.id))
                void revalidate.current()
              }}
            />
          ))}
          {queued.map((item) => (
            <PendingPhoto key={item.key} item={item} online={queue.online} />
          ))}
        </ul>
      )}

      {readOnly ? null : hydrated ? (
        <div className="space-y-3 sm:max-w-md">
          <LabelChoice value={label} onChange={setChosenLabel} />
          {full ? (
            <p className="text-sm text-slate-700">{PHOTO_MESSAGES.tooMany}</p>
          ) : (
            <div className="grid grid-cols-1 gap-3 min-[360px]:grid-cols-2">
              <FileButton capture onFile={add}>
                Take photo
              </FileButton>
              <FileButton onFile={add}>Choose photo</FileButton>
            </div>
          )}
          {problem ? <Alert tone="error">{problem}</Alert> : null}
          {queue.signedOut ? (
            <Alert tone="error">You are signed out. Log in again to upload the photos waiting on this phone.</Alert>
          ) : null}
        </div>
      ) : (
        <PlainUploadForm visitId={visitId} label={label} />
      )}
    </Card>
  )
}

/** Before / After / Other as a row of large radio buttons. */
function LabelChoice({ value, onChange }: { value: PhotoLabel; onChange: (label: PhotoLabel) => void }) {
  const name = useId()
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium text-slate-800">Label for the next photo</legend>
      <div className="grid grid-cols-3 gap-2">
        {PHOTO_LABELS.map((option) => (
          <label
            key={option}
            className={cn(
              'relative flex min-h-11 cursor-pointer items-center justify-center rounded-lg border px-2 text-sm font-semibold',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700',
              value === option
                ? 'border-brand-700 bg-brand-700 text-white'
                : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
            )}
          >
            <input
              type="radio"
              name={name}
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
              // Invisible over the whole button: a tap anywhere on it is a tap on the radio.
              className="absolute inset-0 cursor-pointer opacity-0"
            />
            {PHOTO_LABEL_NAMES[option]}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

/** A button that opens the camera (`capture`) or the photo library; the chosen file is handed over at once. */
function FileButton({
  capture = false,
  onFile,
  children,
}: {
  capture?: boolean
  onFile: (file: File | undefined) => void
  children: string
}) {
  return (
    <label
      className={buttonClass(
        capture ? 'primary' : 'secondary',
        'w-full cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700',
      )}
    >
      <input
        type="file"
        accept="image/*"
        capture={capture ? 'environment' : undefined}
        className="sr-only"
        onChange={(event) => {
          const input = event.currentTarget
          onFile(input.files?.[0])
          // The same file may be chosen again (a retake of the same picture name).
          input.value = ''
        }}
      />
      {children}
    </label>
  )
}

/** Without the page's script: one file field, the label, and a submit button (the route redirects back). */
function PlainUploadForm({ visitId, label }: { visitId: string; label: PhotoLabel }) {
  // Conform governs this form only as posted without JavaScript (with it, photos go through the queue); the route
  // answers by redirecting back with the outcome as the page's flash message.
  const [form, fields] = useZodForm(PhotoUploadSchema, { id: 'photo-upload' })
  return (
    <form
      method="post"
      action={`/app/visits/${visitId}/photos`}
      encType="multipart/form-data"
      {...getFormProps(form)}
      // Conform never runs here (once the script runs, the queue replaces this form), so the browser's own check
      // that a photo was chosen stays.
      noValidate={false}
      className="space-y-3"
    >
      <fieldset>
        <legend className="mb-1 text-sm font-medium text-slate-800">Label</legend>
        <div className="flex flex-wrap gap-4">
          {PHOTO_LABELS.map((option) => (
            <label key={option} className="flex min-h-11 items-center gap-2 text-sm">
              <input
                type="radio"
                name={fields.label.name}
                value={option}
                defaultChecked={option === label}
                className="size-5"
              />
              {PHOTO_LABEL_NAMES[option]}
            </label>
          ))}
        </div>
      </fieldset>
      <FieldFrame id={fields.photo.id} label="Photo">
        <input
          id={fields.photo.id}
          type="file"
          name={fields.photo.name}
          accept="image/*"
          required
          className="block w-full min-h-11 text-sm text-slate-700 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:font-semibold file:text-brand-800"
        />
      </FieldFrame>
      <Button type="submit" variant="secondary" className="w-full sm:w-auto">
        Upload photo
      </Button>
    </form>
  )
}

function LabelBadge({ label }: { label: PhotoLabel }) {
  return (
    <span className="absolute top-1.5 left-1.5 rounded-md bg-slate-900/80 px-2 py-0.5 text-xs font-semibold text-white">
      {PHOTO_LABEL_NAMES[label]}
    </span>
  )
}

type RemoveAnswer = { ok: true } | { ok: false; message?: string; signedOut?: boolean }

function SavedPhoto({
  photo,
  position,
  readOnly,
  hydrated,
  onRemoved,
}: {
  photo: VisitPhotoView
  position: string
  readOnly: boolean
  hydrated: boolean
  onRemoved: () => void
}) {
  const [confirming, setConfirming] = useState(false)
  const [removing, setRemoving] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const name = PHOTO_LABEL_NAMES[photo.label]

  async function remove() {
    setRemoving(true)
    setError(null)
    try {
      const response = await fetch(photo.url, {
        method: 'DELETE',
        credentials: 'same-origin',
        headers: { Accept: 'application/json' },
      })
      const answer = (await response.json().catch(() => ({ ok: false }))) as RemoveAnswer
      // Already gone (removed on another phone) is what was asked for.
      if (answer.ok || response.status === 404) {
        onRemoved()
        return
      }
      setError(answer.signedOut ? SESSION_ENDED : (answer.message ?? REMOVE_FAILED))
    } catch {
      setError(REMOVE_FAILED)
    }
    setRemoving(false)
    setConfirming(false)
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    // With the script the form asks first; without it, it posts straight away.
    event.preventDefault()
    setConfirming(true)
  }

  return (
    <li className="space-y-2">
      <a href={photo.url} target="_blank" rel="noopener" className="relative block">
        <img
          src={photo.thumbUrl}
          alt={`${name}, ${position} of this visit (opens full size)`}
          width={400}
          height={300}
          loading="lazy"
          className="aspect-[4/3] w-full rounded-lg bg-slate-100 object-cover ring-1 ring-slate-200"
        />
        <LabelBadge label={photo.label} />
      </a>
      {readOnly ? null : confirming ? (
        <div className="space-y-2 rounded-lg border border-red-200 bg-red-50 p-2">
          <p className="text-sm font-medium text-slate-900">Remove this {name.toLowerCase()} photo?</p>
          <div className="grid grid-cols-2 gap-2">
            <Button
              type="button"
              variant="danger"
              className="px-2"
              pending={removing}
              pendingLabel="Removing…"
              onClick={() => void remove()}
            >
              Remove
            </Button>
            <Button
              type="button"
              variant="secondary"
              className="px-2"
              disabled={removing}
              onClick={() => setConfirming(false)}
            >
              Keep
            </Button>
          </div>
        </div>
      ) : (
        <form method="post" action={photo.url.split('?')[0]} onSubmit={hydrated ? submit : undefined}>
          <input type="hidden" name="intent" value="remove" />
          <Button type="submit" variant="ghost" className="w-full border border-slate-200">
            Remove<span className="sr-only"> {`${name.toLowerCase()} photo ${position}`}</span>
          </Button>
        </form>
      )}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </li>
  )
}

/** A photo still on the phone: its local preview, and how its upload is going. */
function PendingPhoto({ item, online }: { item: QueuedPhoto; online: boolean }) {
  const preview = useObjectUrl(item.blob)
  const [previewFailed, setPreviewFailed] = useState(false)
  const name = PHOTO_LABEL_NAMES[item.label]
  const percent = Math.round((item.progress ?? 0) * 100)
  const failedBefore = item.state === 'waiting' && !item.sending && item.attempts > 0

  return (
    <li className="space-y-2">
      <div className="relative">
        {preview && !previewFailed ? (
          <img
            src={preview}
            alt={`${name}, still on this phone, not uploaded yet`}
            onError={() => setPreviewFailed(true)}
            className={cn(
              'aspect-[4/3] w-full rounded-lg object-cover ring-1',
              item.state === 'refused' ? 'opacity-60 ring-red-300' : 'ring-slate-200',
            )}
          />
        ) : (
          // HEIC files, for one, upload fine but most browsers cannot draw them.
          <div className="flex aspect-[4/3] w-full items-center justify-center rounded-lg bg-slate-100 p-2 text-center text-xs text-slate-600 ring-1 ring-slate-200">
            No preview for {item.fileName}
          </div>
        )}
        <LabelBadge label={item.label} />
      </div>
      {item.state === 'refused' ? (
        <div className="space-y-2">
          <p role="alert" className="text-sm text-danger">
            Not uploaded: {item.refusal}
          </p>
          <Button type="button" variant="secondary" className="w-full" onClick={() => void dismissRefused(item.key)}>
            Dismiss
          </Button>
        </div>
      ) : item.sending ? (
        <div className="space-y-1">
          <progress
            max={100}
            value={percent}
            aria-label={`Uploading ${name.toLowerCase()} photo`}
            className="h-2 w-full overflow-hidden rounded accent-brand-700"
          />
          <p className="text-sm text-slate-700">Uploading… {percent}%</p>
        </div>
      ) : (
        <div className="space-y-2">
          <p className="text-sm text-slate-700" role="status">
            {!online
              ? 'Offline: waiting to upload'
              : failedBefore
                ? 'Upload failed. It will try again.'
                : 'Waiting to upload'}
          </p>
          <div className="grid grid-cols-2 gap-2">
            {failedBefore && online ? (
              <Button type="button" variant="secondary" className="px-2" onClick={() => void flushQueue()}>
                Retry
              </Button>
            ) : null}
            <Button
              type="button"
              variant="ghost"
              className={cn('border border-slate-200 px-2', !(failedBefore && online) && 'col-span-2')}
              onClick={() => void cancelQueued(item.key)}
            >
              Cancel<span className="sr-only"> {name.toLowerCase()} photo upload</span>
            </Button>
          </div>
        </div>
      )}
    </li>
  )
}

/** An object URL for `blob` while the component shows it (object URLs hold the file in memory until revoked). */
function useObjectUrl(blob: Blob) {
  const [url, setUrl] = useState<string | null>(null)
  const first = useRef(blob)
  // Made once per queued item (the list is keyed by it): every refresh of the queue reads a fresh copy of the same
  // file, which must not make a new URL each time the upload's progress moves.
  useEffect(() => {
    const made = URL.createObjectURL(first.current)
    setUrl(made)
    return () => URL.revokeObjectURL(made)
  }, [])
  return url
}
