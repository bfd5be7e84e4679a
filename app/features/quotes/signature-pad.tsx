// A signature drawn with a finger or a mouse on a canvas (issue 33 item 3). What is drawn goes into a hidden field as
// a PNG data URL; nothing drawn leaves it blank, and the typed name is the signature (the keyboard's way to sign).
import { useRef, useState } from 'react'
import { Button } from '~/components/ui/button'

export function SignaturePad({ name }: { name: string }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const drawing = useRef(false)
  const [value, setValue] = useState('')

  const point = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect()
    const scale = event.currentTarget.width / box.width
    return { x: (event.clientX - box.left) * scale, y: (event.clientY - box.top) * scale }
  }
  const context = () => {
    const ctx = canvas.current?.getContext('2d')
    if (ctx) {
      ctx.lineWidth = 3
      ctx.lineCap = 'round'
      ctx.strokeStyle = '#0f172a'
    }
    return ctx
  }
  return (
    <div className="space-y-2">
      <p id="signature-label" className="text-sm font-medium text-slate-800">
        Sign here with your finger or mouse
      </p>
      <p id="signature-hint" className="text-sm text-slate-600">
        Or leave it blank: your typed name is your signature.
      </p>
      <canvas
        ref={canvas}
        width={600}
        height={180}
        role="img"
        aria-labelledby="signature-label"
        aria-describedby="signature-hint"
        data-testid="signature-pad"
        className="h-36 w-full touch-none rounded-lg border border-slate-400 bg-white"
        onPointerDown={(event) => {
          const ctx = context()
          if (!ctx) return
          drawing.current = true
          event.currentTarget.setPointerCapture(event.pointerId)
          const { x, y } = point(event)
          ctx.beginPath()
          ctx.moveTo(x, y)
        }}
        onPointerMove={(event) => {
          if (!drawing.current) return
          const ctx = context()
          const { x, y } = point(event)
          ctx?.lineTo(x, y)
          ctx?.stroke()
        }}
        onPointerUp={() => {
          drawing.current = false
          setValue(canvas.current?.toDataURL('image/png') ?? '')
        }}
      />
      <input type="hidden" name={name} value={value} />
      {value ? (
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            const c = canvas.current
            c?.getContext('2d')?.clearRect(0, 0, c.width, c.height)
            setValue('')
          }}
        >
          Clear signature
        </Button>
      ) : null}
    </div>
  )
}
