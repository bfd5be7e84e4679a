import { Button } from './ui/button'

/**
 * The second step of a destructive action: "Yes, …" submits the form it sits in, "Cancel" goes back. The first step
 * (the action's own button) and the sentence that says what happens stay with the form.
 */
export function ConfirmButtons({ confirm, onCancel }: { confirm: string; onCancel: () => void }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" variant="danger">
        {confirm}
      </Button>
      <Button type="button" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  )
}
