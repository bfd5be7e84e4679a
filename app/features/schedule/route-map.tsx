// The route page's schematic map (docs/product.md "Schedule"): the stops drawn from their latitude and longitude,
// numbered as in the list, the drive joined by a line from the start (a square) to the end (an open square). Inline
// SVG, so no map server is ever asked.
import type { LatLng } from '~/routing/distance'
import { schematicPoints } from '~/routing/schematic'

export type MapStop = { number: number; customerName: string; point: LatLng | null; open: boolean }

const VIEWBOX = { width: 400, height: 260, padding: 24 }

type Place = { address: string; point: LatLng } | null

export function RouteMap({ start, end = null, stops }: { start: Place; end?: Place; stops: MapStop[] }) {
  const placed = stops.filter((stop): stop is MapStop & { point: LatLng } => stop.point !== null)
  if (placed.length === 0) {
    return <p className="text-sm text-slate-600">No stop has a location yet, so there is no map.</p>
  }
  const points = schematicPoints(
    [...(start ? [start.point] : []), ...placed.map((stop) => stop.point), ...(end ? [end.point] : [])],
    VIEWBOX,
  )
  const startPoint = start ? points[0] : undefined
  const endPoint = end ? points[points.length - 1] : undefined
  const stopPoints = points.slice(start ? 1 : 0, start ? placed.length + 1 : placed.length)
  // The line follows the drive: the start, the open stops in order (finished stops are no longer driven to), the end.
  const driven = [
    ...(startPoint ? [startPoint] : []),
    ...stopPoints.filter((_, index) => placed[index]?.open),
    ...(endPoint ? [endPoint] : []),
  ]
  const places = [start ? 'the start' : null, end ? 'the end' : null].filter(Boolean).join(' and ')
  const label = `Map of ${placed.length} ${placed.length === 1 ? 'stop' : 'stops'}${places ? ` and ${places}` : ''}`
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${VIEWBOX.width} ${VIEWBOX.height}`}
      className="h-auto w-full rounded-lg border border-slate-200 bg-slate-50"
    >
      {driven.length > 1 ? (
        <polyline
          points={driven.map((point) => `${point.x},${point.y}`).join(' ')}
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          strokeLinejoin="round"
          className="text-brand-600"
        />
      ) : null}
      {/* Under the start's square: the same place when the day ends back at the yard. */}
      {endPoint ? (
        <g>
          <title>{`End: ${end?.address}`}</title>
          <rect
            x={endPoint.x - 8}
            y={endPoint.y - 8}
            width={16}
            height={16}
            className="fill-white stroke-slate-900"
            strokeWidth={3}
          />
        </g>
      ) : null}
      {startPoint ? (
        <g>
          <title>{`Start: ${start?.address}`}</title>
          <rect x={startPoint.x - 8} y={startPoint.y - 8} width={16} height={16} className="fill-slate-900" />
        </g>
      ) : null}
      {placed.map((stop, index) => {
        const point = stopPoints[index]
        if (!point) return null
        return (
          <g key={stop.number}>
            <title>{`${stop.number}. ${stop.customerName}`}</title>
            <circle
              cx={point.x}
              cy={point.y}
              r={11}
              className={stop.open ? 'fill-brand-700' : 'fill-slate-400'}
              stroke="white"
              strokeWidth={2}
            />
            <text
              x={point.x}
              y={point.y}
              textAnchor="middle"
              dominantBaseline="central"
              className="fill-white text-[11px] font-semibold"
            >
              {stop.number}
            </text>
          </g>
        )
      })}
    </svg>
  )
}
