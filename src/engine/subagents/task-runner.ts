// The `task` tool's work (R-AGENT-1): a child session opened through the same door as any other,
// its agent's prompt sent as its one turn, its final answer returned as the call's result. Children
// of one batch run side by side, at most `agents.maxParallel` at once; the parent's cancel ends
// them; approvals they need go to the parent's front end one at a time, naming the agent; their
// events reach the parent's subscribers that ask for children, carrying the child's session id.
import type { LanguageServers } from "../language-servers.js";
import type { AgentDefinition } from "../../agents/definition.js";
import { GENERAL_AGENT } from "../../agents/definition.js";
import { agentProblems, droppedTools } from "../../agents/check.js";

export type { AgentSummary } from "../../agents/check.js";
import { resolveModel } from "../../config/resolve.js";
import type { Config, PermissionMode, ResolvedModel } from "../../config/types.js";
import type { ConfiguredHook } from "../../hooks/events.js";
import { Serial, Slots } from "../../tools/batch-order.js";
import { fail } from "../../tools/results.js";
import type { ToolProgress, ToolResult } from "../../tools/types.js";
import type { EngineEvent } from "../door/events.js";
import type { SessionHooks } from "../door/requests.js";
import type { ChildSessionHandle } from "../door/session-door.js";
import { childConfig, childMode, childTools, type ChildOptions } from "./child-options.js";
import { taskResult } from "./task-result.js";
import type { Isolation } from "./isolation.js";
import { loadIsolation } from "./index.js";

/** The user's hooks a child runs: its calls' and its stop's (no session start or end of its own). */
const CHILD_HOOK_EVENTS: readonly string[] = ["PreToolUse", "PostToolUse", "SubagentStop"];

/** An event of a child (or grandchild), as the parent's subscribers that ask for children get it. */
export type ChildEvent = EngineEvent & { session?: string; agent?: string; parent_call?: string };

/** What the runner needs of a child session: a part of the door (`ChildSessionHandle`). */
export type ChildSession = ChildSessionHandle;

export interface ChildOpenRequest {
  home: string;
  cwd: string;
  config: Config;
  model: ResolvedModel;
  hooks: SessionHooks;
  child: ChildOptions;
  userHooks?: readonly ConfiguredHook[];
  env?: NodeJS.ProcessEnv;
  redactEvents?: boolean;
}

/** The parent session as the runner sees it. */
export interface TaskParent {
  readonly id: string;
  readonly cwd: string;
  readonly home: string;
  readonly settings: Config;
  readonly model: ResolvedModel;
  readonly hooks: SessionHooks;
  /** 0 for a top-level session. */
  readonly depth: number;
  readonly agents: readonly AgentDefinition[];
  readonly userHooks?: readonly ConfiguredHook[];
  readonly env?: NodeJS.ProcessEnv;
  readonly redactEvents?: boolean;
  /** The parent's language servers, lent to its children (R-LSP: one server per root, not per child). */
  readonly languageServers?: LanguageServers;
  mode(): PermissionMode;
  /** The tools the parent offers now (built-in and MCP). */
  toolNames(): string[];
  publish(event: ChildEvent): void;
  open(request: ChildOpenRequest): Promise<{ session: ChildSession; warnings: string[] }>;
}

export interface TaskCall {
  args: { description: string; prompt: string; agent?: string; isolation?: Isolation };
  callId: string;
  turn: number;
  signal: AbortSignal;
  /** Reports the child's work as the call's progress: tool calls so far and the newest. */
  progress?: (update: ToolProgress) => void;
}

export class TaskRunner {
  private readonly slots: Slots;
  /** One approval question at a time, whichever child asks. */
  private readonly asking = new Serial();
  /** Children running now (the UI's status line counts them). */
  running = 0;
  /** Dropped-tool notices already given. */
  private readonly noticed = new Set<string>();

  constructor(private readonly parent: TaskParent) {
    this.slots = new Slots(parent.settings.agents.maxParallel);
  }

  /** The providers an agent's model may name: the configured ones and the parent's own. */
  private providers(): string[] {
    return [...Object.keys(this.parent.settings.providers), this.parent.model.providerId];
  }

  async run(call: TaskCall): Promise<ToolResult> {
    const parent = this.parent;
    const name = call.args.agent?.trim() || GENERAL_AGENT;
    // Names are lower case; a model writing `Explore` means `explore`.
    const agent =
      parent.agents.find((a) => a.name === name) ?? parent.agents.find((a) => a.name === name.toLowerCase());
    if (!agent)
      return fail(`task: no agent '${name}' (agents: ${parent.agents.map((a) => a.name).join(", ")})`);
    const toolNames = parent.toolNames();
    const problems = agentProblems(agent, { toolNames, providers: this.providers() });
    if (problems.length > 0) return fail(`task: agent '${name}' cannot run:\n${problems.join("\n")}`);
    // R-WF-7: tools tern lacks are dropped, one notice each per session.
    for (const text of droppedTools(agent, { toolNames }))
      if (!this.noticed.has(text)) {
        this.noticed.add(text);
        parent.publish({ type: "notice", text });
      }
    let model = parent.model;
    if (agent.model && agent.model !== parent.model.id) {
      try {
        // The parent's provider is where the parent reaches it (a --base-url included).
        const sameProvider = agent.model.startsWith(`${parent.model.providerId}/`);
        model = resolveModel({ ...parent.settings, model: agent.model }, parent.env ?? process.env, {
          baseUrl: sameProvider ? parent.model.endpoint.baseUrl : undefined,
        }).model;
      } catch (err) {
        return fail(
          `task: ${agent.path ?? name}: model: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    if (call.signal.aborted) return cancelled();
    const release = await acquire(this.slots, call.signal);
    if (!release) return cancelled();
    this.running++;
    try {
      return await this.runChild(agent, model, toolNames, call);
    } finally {
      this.running--;
      release();
    }
  }

  private async runChild(
    agent: AgentDefinition,
    model: ResolvedModel,
    toolNames: string[],
    call: TaskCall,
  ): Promise<ToolResult> {
    const parent = this.parent;
    const depth = parent.depth + 1;
    const mode = childMode(parent.mode(), agent);
    const offered = childTools(agent, toolNames, depth);
    let child: ChildSession;
    const started = { id: "" };
    // The agent file's `isolation: worktree` or the call's own: the child works in its own worktree.
    const isolation = call.args.isolation ?? agent.isolation;
    const isolated = isolation === "worktree" ? await loadIsolation() : undefined;
    const place = isolated ? await isolated.isolatedPlace(parent.cwd, agent.name) : undefined;
    if (typeof place === "string") return fail(`task: sub-agent '${agent.name}': ${place}`);
    try {
      ({ session: child } = await parent.open({
        home: parent.home,
        cwd: place?.cwd ?? parent.cwd,
        config: childConfig(parent.settings, mode, offered.tools),
        model,
        hooks: this.childHooks(agent, started),
        child: {
          link: { session: parent.id, turn: call.turn, seq: 1, agent: agent.name, call: call.callId },
          depth,
          ...offered,
          planning: mode === "plan",
          system: agent.prompt,
          languageServers: parent.languageServers,
        },
        // A PreToolUse guard holds for the calls a child makes as for the parent's own; its
        // stop is SubagentStop's (hook-points/session-hooks.ts).
        userHooks: parent.userHooks?.filter((h) => CHILD_HOOK_EVENTS.includes(h.event)),
        env: parent.env,
        redactEvents: parent.redactEvents,
      }));
    } catch (err) {
      return fail(
        `task: sub-agent '${agent.name}' could not start: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    started.id = child.id;
    let toolCalls = 0;
    const unsubscribe = child.subscribe(
      // `parent_call`: the top-level `task` call the work is under (each level sets its own, so
      // the outermost wins), for a front end that folds a child's lines under that call.
      (published) => {
        // A grandchild's events come through with the ids its own runner set.
        const event = published as ChildEvent;
        if (event.type === "tool_call")
          call.progress?.({
            progress: ++toolCalls,
            message: `${event.agent ?? agent.name}: ${event.name} ${event.presentation.title.split("\n")[0]}`,
          });
        parent.publish({
          ...event,
          session: event.session ?? child.id,
          agent: event.agent ?? agent.name,
          parent_call: call.callId,
        });
      },
      { children: true },
    );
    const onAbort = () => child.cancel({ queue: "drop" });
    call.signal.addEventListener("abort", onAbort, { once: true });
    try {
      const outcome = await child.send({
        type: "prompt",
        content: [{ type: "text", text: call.args.prompt }],
      });
      const result = taskResult(agent.name, child.id, outcome);
      return place && isolated ? await isolated.closeIsolated(place, call.args.description, result) : result;
    } catch (err) {
      return fail(
        `task: sub-agent '${agent.name}' (session ${child.id}) failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    } finally {
      call.signal.removeEventListener("abort", onAbort);
      unsubscribe();
      await child.close();
    }
  }

  /** A child asks through the parent's front end, one question at a time, naming its agent. */
  private childHooks(agent: AgentDefinition, started: { id: string }): SessionHooks {
    const hooks = this.parent.hooks;
    return {
      approve: (calls) =>
        this.asking.run(() =>
          hooks.approve(
            calls.map((c) => ({
              ...c,
              agent: { name: agent.name, session: started.id },
              reason: c.reason ? `sub-agent '${agent.name}': ${c.reason}` : `sub-agent '${agent.name}'`,
            })),
          ),
        ),
      denialMessage: hooks.denialMessage,
      offersOutsideSandbox: hooks.offersOutsideSandbox,
    };
  }
}

function cancelled(): ToolResult {
  return { outcome: "not_executed", content: [{ type: "text", text: "not executed: cancelled by user" }] };
}

/** A slot, or undefined when the call is cancelled while it waits for one. */
async function acquire(slots: Slots, signal: AbortSignal): Promise<(() => void) | undefined> {
  const got = slots.acquire();
  const aborted = new Promise<undefined>((resolve) =>
    signal.addEventListener("abort", () => resolve(undefined), { once: true }),
  );
  const release = await Promise.race([got, aborted]);
  if (release) return release;
  // The slot may still come: give it straight back.
  void got.then((r) => r());
  return undefined;
}
