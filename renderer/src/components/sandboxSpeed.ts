import { count } from '../../../shared/i18n';

/** A span of virtual time in the largest whole unit: "1 hour", "10 minutes", "90 seconds". */
export function span(seconds: number): string {
  if (seconds >= 86_400 && seconds % 86_400 === 0) return count(seconds / 86_400, 'day');
  if (seconds >= 3600 && seconds % 3600 === 0) return count(seconds / 3600, 'hour');
  if (seconds >= 60 && seconds % 60 === 0) return count(seconds / 60, 'minute');
  return count(Math.round(seconds), 'second');
}

/** How fast the Offline sandbox's clock runs, in words a newcomer reads once and understands. */
export function sandboxSpeed(timeScale: number): string {
  if (timeScale === 0) return 'Its clock is stopped: it moves only when you move it forward.';
  if (timeScale === 1) return 'Its clock runs at real time.';
  return `Its clock runs ${timeScale} times faster than real time: one real minute is ${span(60 * timeScale)} there, so its times run ahead of yours.`;
}
