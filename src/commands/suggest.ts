// "Did you mean": the command a mistyped name most likely meant (R-UI-6).
import { COMMANDS } from "./table.js";

/** Edits between two names, a swap of neighbours counting as one (optimal string alignment). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** The command a mistyped name most likely meant: a unique prefix, else the nearest by edits (ties: table order). */
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
