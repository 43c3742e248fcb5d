// "Did you mean": the command a mistyped name most likely meant (R-UI-6).
import { COMMANDS } from "./table.js";

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** The command a mistyped name most likely meant: a unique prefix, else the nearest by edits. */
export function nearestCommand(typed: string): string | undefined {
  const names = COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
  const prefixed = names.filter((n) => n.startsWith(typed));
  if (prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of names) {
    const d = distance(typed, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  // Two edits at most, and fewer than half the name: `/frobnicate` suggests nothing.
  return bestDistance <= Math.min(2, Math.floor((typed.length - 1) / 2)) ? best : undefined;
}

/** The answer to an unknown command, with the nearest one when there is a near one. */
export function unknownCommandText(typed: string): string {
  const near = nearestCommand(typed);
  return near
    ? `unknown command ${typed}: did you mean ${near}? (/help lists the commands)`
    : `unknown command ${typed}: /help lists the commands`;
}
