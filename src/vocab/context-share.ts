// The context in use as one number (R-UI-24): the status line and `/context` show the same
// percentage, from the same figure (the prompt tokens the model last counted) and rounding.

/** Whole percent of `window` that `used` tokens take; 0 when the window is unknown. */
export function contextPercent(used: number, window: number | undefined): number {
  return window ? Math.round((used / window) * 100) : 0;
}
