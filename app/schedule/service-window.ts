// A plan's "Service window" as wall-clock hours on the company's calendar. Visits carry a date and a window, not a
// time: the technician's route decides the order within the day. The hours are what the calendar feed shows and
// where "converted to an instant" starts; they are one table here so the feed, the board and the tests agree.
import type { WallTime } from './local-date'

export const SERVICE_WINDOWS = ['morning', 'afternoon', 'flexible'] as const
export type ServiceWindow = (typeof SERVICE_WINDOWS)[number]

export const SERVICE_WINDOW_HOURS: Record<ServiceWindow, { start: WallTime; end: WallTime; label: string }> = {
  morning: { start: '08:00', end: '12:00', label: 'Morning' },
  afternoon: { start: '12:00', end: '17:00', label: 'Afternoon' },
  // "Flexible" means any time in the working day.
  flexible: { start: '08:00', end: '17:00', label: 'Flexible' },
}
