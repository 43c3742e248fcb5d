// Layer merging with provenance (SPEC §2): objects merge key by key, arrays and scalars replace,
// `permissions.deny` is the union of all layers, and `executionBudget: "unlimited"` replaces the
// object while an object over "unlimited" starts again from the defaults.
import { defaultExecutionBudget } from "./defaults.js";
import type { ConfigLayer } from "./schema.js";
import { formatPath } from "./key-path.js";
import type { Config } from "./types.js";

export type Sources = Map<string, string>;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Leaf key paths of a value: scalars, arrays and empty objects are leaves. */
export function flatten(
  value: unknown,
  path: PropertyKey[] = [],
  out: [string, unknown][] = [],
): [string, unknown][] {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const key of Object.keys(value)) flatten(value[key], [...path, key], out);
  } else if (path.length > 0) out.push([formatPath(path), value]);
  return out;
}

export class ConfigMerger {
  readonly config: Config;
  readonly sources: Sources = new Map();
  private budgetUnlimited = false;

  constructor(defaults: Config) {
    this.config = structuredClone(defaults);
    for (const [key] of flatten(this.config)) this.sources.set(key, "default");
  }

  /** `sourceOf(keyPath)` names who set each leaf (a file, or a flag name for the flags layer). */
  apply(
    layer: ConfigLayer,
    sourceOf: (keyPath: string) => string,
    opts: { appendAllow?: boolean } = {},
  ): void {
    const { executionBudget, permissions, hooks, ...rest } = layer;
    this.mergeObject(this.config as unknown as Record<string, unknown>, rest, [], sourceOf);
    if (hooks !== undefined) this.appendHooks(hooks, sourceOf);
    if (executionBudget !== undefined) this.applyBudget(executionBudget, sourceOf);
    if (permissions) {
      const { deny, allow, ...others } = permissions;
      this.mergeObject(this.config.permissions as any, others, ["permissions"], sourceOf);
      if (allow !== undefined) {
        const key = "permissions.allow";
        const keep = opts.appendAllow ? this.config.permissions.allow : [];
        this.config.permissions.allow = [...new Set([...keep, ...allow])];
        const prev = this.sources.get(key);
        const appended = opts.appendAllow && keep.length > 0 && prev;
        this.sources.set(key, appended ? `${prev} + ${sourceOf(key)}` : sourceOf(key));
      }
      if (deny !== undefined && deny.length > 0) {
        const key = "permissions.deny";
        const old = this.config.permissions.deny;
        this.config.permissions.deny = [...new Set([...old, ...deny])];
        const prev = this.sources.get(key);
        this.sources.set(key, old.length > 0 && prev ? `${prev} + ${sourceOf(key)}` : sourceOf(key));
      }
    }
  }

  /** Hooks add up across layers, as Claude Code's settings files do; each group keeps its file. */
  private appendHooks(hooks: NonNullable<ConfigLayer["hooks"]>, sourceOf: (k: string) => string) {
    const all = (this.config.hooks ??= {});
    for (const [event, groups] of Object.entries(hooks)) {
      const list = (all[event] ??= []);
      for (const group of groups) {
        this.sources.set(`hooks.${event}[${list.length}]`, sourceOf(`hooks.${event}`));
        list.push(group);
      }
    }
  }

  private applyBudget(budget: NonNullable<ConfigLayer["executionBudget"]>, sourceOf: (k: string) => string) {
    const fields = ["maximumModelCalls", "maximumToolCalls", "maximumDurationSeconds"] as const;
    if (budget === "unlimited") {
      this.budgetUnlimited = true;
      for (const f of fields) {
        this.config.executionBudget[f] = null;
        this.sources.set(`executionBudget.${f}`, sourceOf("executionBudget"));
      }
      // No limit at all: the spending cap goes too (R-PROV-17).
      delete this.config.executionBudget.maximumCostUsd;
      return;
    }
    if (this.budgetUnlimited) {
      this.budgetUnlimited = false;
      this.config.executionBudget = defaultExecutionBudget();
      for (const f of fields) this.sources.set(`executionBudget.${f}`, "default");
    }
    this.mergeObject(this.config.executionBudget as any, budget, ["executionBudget"], sourceOf);
  }

  private mergeObject(
    target: Record<string, unknown>,
    layer: Record<string, unknown>,
    path: PropertyKey[],
    sourceOf: (k: string) => string,
  ): void {
    for (const key of Object.keys(layer)) {
      const value = layer[key];
      if (value === undefined) continue;
      const here = [...path, key];
      if (isPlainObject(value)) {
        if (!isPlainObject(target[key])) {
          this.forget(here);
          target[key] = {};
        }
        // An empty object still states "this exists" (e.g. `headers: {}`), so it is a leaf too.
        if (Object.keys(value).length === 0 && Object.keys(target[key] as object).length === 0) {
          this.sources.set(formatPath(here), sourceOf(formatPath(here)));
        }
        this.mergeObject(target[key] as Record<string, unknown>, value, here, sourceOf);
        continue;
      }
      this.forget(here);
      target[key] = structuredClone(value);
      this.sources.set(formatPath(here), sourceOf(formatPath(here)));
    }
  }

  /** Drops the provenance of a key path, its ancestors' leaf entries and its descendants. */
  private forget(path: PropertyKey[]): void {
    const key = formatPath(path);
    for (let i = 1; i < path.length; i++) this.sources.delete(formatPath(path.slice(0, i)));
    for (const k of [...this.sources.keys()]) {
      if (k === key || k.startsWith(`${key}.`) || k.startsWith(`${key}[`)) this.sources.delete(k);
    }
  }
}
