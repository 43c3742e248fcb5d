// The tool registry and argument parsing (R-TOOL-5): bad JSON, schema violations and unknown
// names become tool results the model can learn from, never exceptions.
import { clip, fail } from "./results.js";
import type { Tool, ToolResult } from "./types.js";
import type { ToolSpec } from "../vocab/messages.js";

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  /** Names whose entry is only a definition until `ready()` loads their code. */
  private readonly unloaded = new Set<string>();
  /** The definition a deferred tool was registered with: what requests keep sending once it loads. */
  private readonly deferred = new Map<string, DeferredDefinition>();
  private loader: (() => Promise<Tool[]>) | undefined;
  private loading: Promise<void> | undefined;

  register(tool: Tool): void {
    if (this.tools.has(tool.name)) throw new Error(`tool '${tool.name}' is already registered`);
    this.tools.set(tool.name, tool);
  }

  /**
   * Tools known by their definitions now and by their code after `ready()`: the request can name
   * them before any of their modules is compiled. `load` must return a tool for every name given.
   */
  registerDeferred(definitions: readonly DeferredDefinition[], load: () => Promise<Tool[]>): void {
    for (const d of definitions) {
      this.register(definitionOnly(d));
      this.unloaded.add(d.name);
      this.deferred.set(d.name, d);
    }
    this.loader = load;
  }

  /** Loads the code of deferred tools (once); `get` returns real tools afterwards. */
  ready(): Promise<void> {
    if (this.unloaded.size === 0 || !this.loader) return Promise.resolve();
    const load = this.loader;
    this.loading ??= load().then((tools) => {
      for (const tool of tools) {
        if (!this.unloaded.delete(tool.name)) continue;
        tool.jsonSchema ??= this.deferred.get(tool.name)?.jsonSchema;
        // Map.set on a present key keeps its place: the definitions' order does not change.
        if (this.tools.has(tool.name)) this.tools.set(tool.name, tool);
      }
      if (this.unloaded.size > 0) throw new Error(`tools without code: ${[...this.unloaded].join(", ")}`);
    });
    return this.loading;
  }

  /** Tools of a server that went away or reconnected leave and come back under the same names. */
  unregister(name: string): void {
    this.tools.delete(name);
    this.unloaded.delete(name);
    this.deferred.delete(name);
  }

  /** Why a tool this session does not offer is refused, for a call that names it anyway. */
  private readonly refusals = new Map<string, string>();

  /** Takes a tool out and says why a call of it is refused (a sub-agent without `task`). */
  withhold(name: string, why: string): void {
    this.unregister(name);
    this.refusals.set(name, why);
  }

  /** The result of a call naming a tool this session does not have: why it is withheld, or unknown. */
  missing(name: string): ToolResult {
    const why = this.refusals.get(name);
    return why === undefined ? unknownToolResult(name, this.names()) : fail(why);
  }

  /** A session's own words for a tool (the `task` tool lists the session's agents). */
  setDescription(name: string, description: string): void {
    const deferred = this.deferred.get(name);
    if (deferred) this.deferred.set(name, { ...deferred, description });
    const tool = this.tools.get(name);
    if (tool && !deferred) this.tools.set(name, { ...tool, description });
  }

  /** The tool; for a deferred one only after `ready()` (before it, its definition throws when used). */
  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Which tools the request offers (the session's executor: its policy's mode, mode-offer.ts). */
  private offered: (tool: Tool) => boolean = () => true;

  /** Tools left out still run when called (the policy answers them): only the request changes. */
  offerOnly(filter: (tool: Tool) => boolean): void {
    this.offered = filter;
  }

  /** A tool's own condition on top of the filter, asked before each request (recall-offer.ts). */
  private readonly conditions = new Map<string, () => boolean>();

  /** Offers `name` only while `condition()` holds; a call naming it still runs either way. */
  offerWhen(name: string, condition: () => boolean): void {
    this.conditions.set(name, condition);
  }

  /** Tool definitions for the request, in registration order (stable, so prompt caches hit). */
  definitions(): ToolSpec[] {
    const offered = (t: Tool) => this.offered(t) && (this.conditions.get(t.name)?.() ?? true);
    return [...this.tools.values()].filter(offered).map((t) => {
      const d = this.deferred.get(t.name) ?? t;
      return { name: d.name, description: d.description, parameters: jsonSchemaOf(d) };
    });
  }
}

export interface DeferredDefinition {
  name: string;
  description: string;
  kind: Tool["kind"];
  jsonSchema: Record<string, unknown>;
}

function definitionOnly(d: DeferredDefinition): Tool {
  const notLoaded = (): never => {
    throw new Error(`tool '${d.name}' is used before ToolRegistry.ready() loaded its code`);
  };
  return {
    ...d,
    get schema() {
      return notLoaded();
    },
    paths: notLoaded,
    run: notLoaded,
  };
}

function jsonSchemaOf(tool: Pick<Tool, "name" | "jsonSchema">): Record<string, unknown> {
  // Built-in tools' come with their deferred definitions (computed by the build, or from the
  // sources as builtin/index.ts loads), MCP tools' from their server.
  if (!tool.jsonSchema) throw new Error(`tool '${tool.name}' has no JSON schema`);
  return tool.jsonSchema;
}

export type ParsedArguments<Args> = { ok: true; args: Args } | { ok: false; result: ToolResult };

export function parseArguments<Args>(tool: Tool<Args>, raw: string): ParsedArguments<Args> {
  let value: unknown;
  // Some models send "" for a call without arguments.
  const text = raw.trim() === "" ? "{}" : raw;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      result: fail(
        `Invalid arguments for ${tool.name}: not valid JSON (${why}). The arguments must be a JSON object. ` +
          `Received: ${clip(raw, 2000)}`,
      ),
    };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return {
      ok: false,
      result: fail(
        `Invalid arguments for ${tool.name}: the arguments must be a JSON object. Received: ${clip(raw, 2000)}`,
      ),
    };
  }
  const parsed = tool.schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 6)
      .map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`)
      .join("; ");
    return { ok: false, result: fail(`Invalid arguments for ${tool.name}: ${issues}`) };
  }
  return { ok: true, args: parsed.data };
}

export function unknownToolResult(name: string, available: string[]): ToolResult {
  return fail(`Unknown tool '${clip(name, 200)}'. Available tools: ${available.join(", ")}.`);
}
