// Sub-agents' sessions (R-AGENT-1) listed under the session that started them, depth first, each
// level indented: `tern sessions` and `tern metrics`' totals per session.

/** `items` reordered so each child follows its parent, with its depth (0 = no parent among them). */
export function underParents<T>(
  items: readonly T[],
  id: (item: T) => string,
  parent: (item: T) => string | null | undefined,
): { item: T; depth: number }[] {
  const ids = new Set(items.map(id));
  const children = new Map<string, T[]>();
  const roots: T[] = [];
  for (const item of items) {
    const p = parent(item);
    if (p && ids.has(p) && p !== id(item)) children.set(p, [...(children.get(p) ?? []), item]);
    else roots.push(item);
  }
  const out: { item: T; depth: number }[] = [];
  const visit = (item: T, depth: number) => {
    out.push({ item, depth });
    for (const child of children.get(id(item)) ?? []) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  return out;
}

/** How a nested id is shown: two spaces per level and a corner. */
export function indented(text: string, depth: number): string {
  return depth === 0 ? text : `${"  ".repeat(depth - 1)}└ ${text}`;
}
