// A new snapshot tree from the last one and a few changed paths (watched-snapshot.ts): only the
// trees on those paths are read and written again, every other tree is kept by its id, so the
// cost is the depth of the changed paths, not the 100,000 files. It gives up (undefined: the
// caller takes the `git status` way) where the empty-folder marks would have to be judged again
// (a folder whose last entry went) or a path changes kind (a file where a folder was, or back).
import { FOLDER_MARK } from "./empty-folders.js";
import { type LooseObjects, TREE_MODE, type TreeEntry } from "./git-objects.js";

/** A path's new entry, or null: gone. */
export type PathChange = { mode: string; id: string } | null;

interface Node {
  children: Map<string, Node>;
  change?: PathChange;
  changed: boolean;
}

const GIVE_UP = Symbol("give up");
const EMPTY = Symbol("empty");

/** Names keyed by their bytes (a tree's names need not be UTF-8). */
const keyOf = (name: Buffer) => name.toString("latin1");

function trieOf(changes: ReadonlyMap<string, PathChange>): Node {
  const root: Node = { children: new Map(), changed: false };
  for (const [path, change] of changes) {
    let node = root;
    for (const part of path.split("/")) {
      const key = keyOf(Buffer.from(part, "utf8"));
      let next = node.children.get(key);
      if (!next) {
        next = { children: new Map(), changed: false };
        node.children.set(key, next);
      }
      node = next;
    }
    node.change = change;
    node.changed = true;
  }
  return root;
}

/**
 * The tree `root` with `changes` applied, and the index entries to match (the paths set or
 * removed, a folder mark dropped where a file came into a folder held as empty); undefined when
 * the change cannot be made here.
 */
export async function rewriteTree(
  objects: LooseObjects,
  root: string,
  changes: ReadonlyMap<string, PathChange>,
): Promise<{ tree: string; index: Map<string, PathChange> } | undefined> {
  const index = new Map<string, PathChange>();
  const tree = await rewrite(objects, root, trieOf(changes), "", index);
  return typeof tree === "string" ? { tree, index } : undefined;
}

async function rewrite(
  objects: LooseObjects,
  id: string | undefined,
  node: Node,
  prefix: string,
  index: Map<string, PathChange>,
): Promise<string | typeof GIVE_UP | typeof EMPTY> {
  const entries = new Map<string, TreeEntry>();
  if (id) for (const e of await objects.readTree(id)) entries.set(keyOf(e.name), e);
  let added = false;
  for (const [key, sub] of node.children) {
    const name = Buffer.from(key, "latin1");
    const path = `${prefix}${name.toString("utf8")}`;
    const existing = entries.get(key);
    if (sub.children.size > 0) {
      if (sub.changed || (existing && existing.mode !== TREE_MODE)) return GIVE_UP;
      const made = await rewrite(objects, existing?.id.toString("hex"), sub, `${path}/`, index);
      if (made === GIVE_UP) return GIVE_UP;
      if (made === EMPTY) {
        // A folder the snapshot held lost its last entry: whether it is empty now is the walk's to say.
        if (existing) return GIVE_UP;
        continue;
      }
      if (!existing) added = true;
      entries.set(key, { mode: TREE_MODE, name, id: Buffer.from(made, "hex") });
      continue;
    }
    const change = sub.change;
    if (existing?.mode === TREE_MODE) return GIVE_UP;
    if (change === null || change === undefined) {
      if (!existing) continue;
      entries.delete(key);
      index.set(path, null);
      continue;
    }
    if (!existing) added = true;
    entries.set(key, { mode: change.mode, name, id: Buffer.from(change.id, "hex") });
    index.set(path, change);
  }
  // A folder held as empty (empty-folders.ts) that a file came into is empty no more.
  const mark = keyOf(Buffer.from(FOLDER_MARK));
  if (added && entries.has(mark) && entries.size > 1) {
    entries.delete(mark);
    index.set(`${prefix}${FOLDER_MARK}`, null);
  }
  if (entries.size === 0) return id ? GIVE_UP : EMPTY;
  return objects.writeTree([...entries.values()]);
}

/** `path`'s entry in the tree `root`, or undefined when the tree does not hold it. */
export async function entryAt(
  objects: LooseObjects,
  root: string,
  path: string,
): Promise<TreeEntry | undefined> {
  let entry: TreeEntry | undefined = { mode: TREE_MODE, name: Buffer.alloc(0), id: Buffer.from(root, "hex") };
  for (const part of path.split("/")) {
    if (entry?.mode !== TREE_MODE) return undefined;
    const key = keyOf(Buffer.from(part, "utf8"));
    entry = (await objects.readTree(entry.id.toString("hex"))).find((e) => keyOf(e.name) === key);
  }
  return entry;
}
