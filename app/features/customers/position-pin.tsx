// The pin of "Adjust position" (docs/subsystems.md, "Positions"): a small map a few kilometers across around the
// location, where the pin is dragged (mouse, pen or finger) or moved with the arrow keys (Shift for bigger steps).
// The Latitude and Longitude boxes stay the truth: the pin writes into them as it moves, typing in them moves the pin,
// and the form posts them as before. Without JavaScript there is no map, only the boxes.
import {
  createContext,
  type KeyboardEvent,
  type PointerEvent,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from 'react'
import type { LatLng } from '~/routing/distance'
import { fromSvg, inView, moveBy, type PinView, parseLatLng, toSvg } from '~/routing/pin-view'
import { useHydrated } from '~/utils/use-hydrated'

const SIZE = 300
/** Three kilometers across: a drag corrects a position by street-level amounts. */
const METERS_ACROSS = 3000
const GRID_METERS = 500
/** Meters an arrow key moves the pin; with Shift, ten times as far. */
const STEP_METERS = 10
const ARROWS: Record<string, [number, number]> = {
  ArrowUp: [1, 0],
  ArrowDown: [-1, 0],
  ArrowRight: [0, 1],
  ArrowLeft: [0, -1],
}

/**
 * Where the pin starts while both boxes are blank: the ZIP center a location is placed at until its address is looked
 * up, given by the customer record for the location being edited. The boxes stay blank until the pin is moved.
 */
export const ApproximatePoint = createContext<LatLng | null>(null)

const text = (point: LatLng) => [point.lat.toFixed(6), point.lng.toFixed(6)] as const
const announce = (point: LatLng) => `Pin moved to latitude ${point.lat.toFixed(5)}, longitude ${point.lng.toFixed(5)}`

/** Sets a box's value as typing would, so React and the form's validation see it. */
function typeInto(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
  setter?.call(input, value)
  input.dispatchEvent(new Event('input', { bubbles: true }))
}

export function PositionPin({ latId, lngId }: { latId: string; lngId: string }) {
  const hydrated = useHydrated()
  const approximate = useContext(ApproximatePoint)
  const [typed, setTyped] = useState(false)
  const [point, setPoint] = useState<LatLng | null>(null)
  const [view, setView] = useState<PinView | null>(null)
  const [message, setMessage] = useState('')
  const svgRef = useRef<SVGSVGElement>(null)
  const dragging = useRef(false)

  // A point off the map (or the first one) re-centers it; inside, the map holds still so a drag has a fixed frame.
  const show = useCallback((next: LatLng | null) => {
    setPoint(next)
    if (next) {
      setView((current) =>
        current && inView(current, next, 16) ? current : { center: next, size: SIZE, metersAcross: METERS_ACROSS },
      )
    }
  }, [])

  useEffect(() => {
    const lat = document.getElementById(latId)
    const lng = document.getElementById(lngId)
    if (!(lat instanceof HTMLInputElement && lng instanceof HTMLInputElement)) return
    const read = () => {
      const point = parseLatLng(lat.value, lng.value)
      setTyped(point !== null)
      show(point ?? (lat.value.trim() === '' && lng.value.trim() === '' ? approximate : null))
    }
    read()
    lat.addEventListener('input', read)
    lng.addEventListener('input', read)
    return () => {
      lat.removeEventListener('input', read)
      lng.removeEventListener('input', read)
    }
  }, [latId, lngId, show, approximate])

  const write = (next: LatLng) => {
    const lat = document.getElementById(latId)
    const lng = document.getElementById(lngId)
    if (!(lat instanceof HTMLInputElement && lng instanceof HTMLInputElement)) return
    const [latText, lngText] = text(next)
    typeInto(lat, latText)
    typeInto(lng, lngText)
  }

  /** Where the pointer is in the viewbox, kept on the map. */
  const localAt = (event: PointerEvent<SVGSVGElement>) => {
    const matrix = svgRef.current?.getScreenCTM()
    if (!matrix) return null
    const local = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse())
    return { x: local.x, y: local.y }
  }
  // A pin grabbed off its center moves with the pointer, without first jumping under it.
  const grab = useRef({ x: 0, y: 0 })
  const pointAt = (event: PointerEvent<SVGSVGElement>) => {
    const local = localAt(event)
    if (!(local && view)) return null
    const x = Math.max(0, Math.min(SIZE, local.x + grab.current.x))
    const y = Math.max(0, Math.min(SIZE, local.y + grab.current.y))
    return fromSvg(view, { x, y })
  }

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0 || !(point && view)) return
    // A finger on the map around the pin scrolls the page as usual; only the pin itself is grabbed by touch.
    const onPin = event.target instanceof Element && event.target.closest('[data-pin]') !== null
    if (event.pointerType !== 'mouse' && !onPin) return
    event.preventDefault()
    event.currentTarget.setPointerCapture(event.pointerId)
    dragging.current = true
    // The pin takes the keyboard too once grabbed.
    event.currentTarget.querySelector<SVGGElement>('[data-pin]')?.focus()
    const local = localAt(event)
    const pin = toSvg(view, point)
    grab.current = onPin && local ? { x: pin.x - local.x, y: pin.y - local.y } : { x: 0, y: 0 }
    if (!onPin) {
      const next = pointAt(event)
      if (next) write(next)
    }
  }
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    if (!dragging.current) return
    const next = pointAt(event)
    if (next) write(next)
  }
  const onPointerUp = (event: PointerEvent<SVGSVGElement>) => {
    if (!dragging.current) return
    dragging.current = false
    event.currentTarget.releasePointerCapture(event.pointerId)
    const next = pointAt(event)
    if (next) setMessage(announce(next))
  }

  const onKeyDown = (event: KeyboardEvent<SVGGElement>) => {
    const arrow = ARROWS[event.key]
    if (!(arrow && point)) return
    event.preventDefault()
    const meters = STEP_METERS * (event.shiftKey ? 10 : 1)
    const next = moveBy(point, arrow[0] * meters, arrow[1] * meters)
    write(next)
    setMessage(announce(next))
  }

  if (!hydrated) return null
  if (!(point && view)) {
    return (
      <p className="mt-3 text-sm text-slate-600">
        Type a latitude and longitude to see the pin on a map and drag it into place.
      </p>
    )
  }
  const pin = toSvg(view, point)
  const unit = (SIZE * GRID_METERS) / METERS_ACROSS
  const lines = Array.from({ length: Math.floor(SIZE / unit) + 1 }, (_, index) => index * unit)
  return (
    <div className="mt-3 space-y-1">
      <svg
        ref={svgRef}
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        className="block h-auto w-full max-w-xs cursor-crosshair rounded-lg border border-slate-200 bg-slate-50 select-none"
        aria-describedby="position-pin-hint"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          dragging.current = false
        }}
      >
        <title>{`Map ${METERS_ACROSS / 1000} km across around the position`}</title>
        <g className="text-slate-200">
          {lines.map((at) => (
            <g key={at}>
              <line x1={at} y1={0} x2={at} y2={SIZE} stroke="currentColor" />
              <line x1={0} y1={at} x2={SIZE} y2={at} stroke="currentColor" />
            </g>
          ))}
          <line x1={12} y1={SIZE - 12} x2={12 + unit} y2={SIZE - 12} stroke="#334155" strokeWidth={2} />
          <text x={12} y={SIZE - 18} className="fill-slate-700 text-[11px]">
            {`${GRID_METERS} m`}
          </text>
          <text x={SIZE / 2} y={14} textAnchor="middle" className="fill-slate-700 text-[11px]">
            N
          </text>
        </g>
        <g
          data-pin
          role="button"
          tabIndex={0}
          aria-label="Position pin: drag, or use the arrow keys"
          aria-roledescription="draggable pin"
          onKeyDown={onKeyDown}
          style={{ touchAction: 'none' }}
          className="cursor-grab touch-none rounded-full outline-none focus-visible:[&>circle:last-child]:stroke-slate-900"
          transform={`translate(${pin.x} ${pin.y})`}
        >
          <circle r={22} fill="transparent" />
          <circle r={10} className="fill-brand-700" stroke="white" strokeWidth={3} />
        </g>
      </svg>
      {typed ? null : (
        <p className="text-sm font-medium text-amber-800">Approximate: ZIP center. Move the pin to set it.</p>
      )}
      <p id="position-pin-hint" className="text-sm text-slate-600">
        Drag the pin (or click the map); arrow keys move it {STEP_METERS} m, with Shift {STEP_METERS * 10} m. Each grid
        square is {GRID_METERS} m.
      </p>
      <p aria-live="polite" className="sr-only">
        {message}
      </p>
    </div>
  )
}
