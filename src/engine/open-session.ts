// Opens a session for a front end: its record (open-record.ts: new, or resumed by replaying it,
// R-REC-1/3), its tools (open-tools.ts), then prompt, provider and the core's parts wired together.
import { redactDeep, registerSecretsFromEnv } from "../config/secrets.js";
import type { Config, ResolvedModel } from "../config/types.js";
import { assembleSystemPromptParts } from "../prompt/assemble.js";
import { createAdapter } from "../provider/index.js";
import { billOf } from "../record/bill.js";
import { preloadLedger } from "../record/ledger.js";
import { TurnReadTracker } from "../tools/read-tracker.js";
import { EventBus } from "./bus.js";
import { Checkpointer } from "./undo/checkpoints.js";
import { SessionCore, type SessionHooks } from "./core.js";
import { planShellSandbox } from "./sandbox.js";
import { Session } from "./session.js";
import { wireToolSets } from "./tool-sync.js";
import { loadSessionHooks } from "./hook-points/index.js";
import { InstructionNotes } from "./instruction-notes.js";
import { contextSources } from "./context-sources.js";
import { writeLedgerRows } from "./ledger-write.js";
import type { ConfiguredHook } from "../hooks/events.js";
import type { findAgents } from "../agents/files.js";
import type { ChildOptions } from "./subagents/child-options.js";
import { TaskRunner } from "./subagents/task-runner.js";
import { LanguageServers } from "./language-servers.js";
import type { EngineEvent } from "./door/events.js";
import type { ResumeTarget } from "./resume-target.js";
import { openRecord } from "./open-record.js";
import { openTools } from "./open-tools.js";
import { offerRecallOnceCompacted } from "./compaction/recall-offer.js";
import { attachSessionTelemetry } from "./session-telemetry.js";

export { peekSessionModel, type ResumeTarget } from "./resume-target.js";

/** Resolves once the event loop has handled the I/O that is ready now (setImmediate's turn). */
function afterPendingIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * What an MCP result may keep before the executor's output gate (R-TOOL-6) cuts it to
 * `toolOutputLimit` and saves what was kept for reading back: 10 million characters (or 100 ×
 * the limit), so a large file read through a server is saved whole while a runaway result stops
 * growing here.
 */
function mcpTextLimit(config: Config): { textChars: number } {
  return { textChars: Math.max(10_000_000, 100 * config.toolOutputLimit) };
}

export interface OpenSessionOptions {
  home: string;
  cwd: string;
  config: Config;
  model: ResolvedModel;
  resume?: ResumeTarget;
  extraSystem?: string;
  hooks: SessionHooks;
  /**
   * Events pass the by-value key redaction before any listener sees them (R-CFG-3): a program
   * embedding tern has no redacting terminal in between, unlike the CLI's stdout.
   */
  redactEvents?: boolean;
  /** Where tool sets' `${VAR}` come from (the library's `env`); default: tern's environment. */
  env?: NodeJS.ProcessEnv;
  /** The user's hooks (R-HOOK-1), collected from the config and Claude Code's settings files. */
  userHooks?: readonly ConfiguredHook[];
  /** Set when a parent's `task` call opens this session (R-AGENT-1): its link, tools and prompt. */
  child?: ChildOptions;
}

export interface OpenedSession {
  session: Session;
  resumed: boolean;
  warnings: string[];
}

export async function openSession(opts: OpenSessionOptions): Promise<OpenedSession> {
  const { home, cwd, config, model } = opts;
  const warnings: string[] = [];
  const { id, dir, writer, fold } = await openRecord(opts, warnings);
  const env = opts.env ?? process.env;
  const bus = new EventBus(opts.redactEvents ? redactDeep : undefined);
  registerSecretsFromEnv(process.env, config);
  const opening = { home, cwd, config, model, hooks: opts.hooks, env, child: opts.child, dir, bus };
  const { registry, agents, sandbox, policy, executor } = openTools(opening, warnings);
  offerRecallOnceCompacted(registry, fold);
  const tools = registry.definitions();
  const promptFor = (toolNames: string[]) =>
    assembleSystemPromptParts({
      cwd,
      home,
      extraSystem: [opts.extraSystem, opts.child?.system].filter(Boolean).join("\n\n") || undefined,
      toolNames,
      userHome: env.HOME,
      compat: config.compat,
      trustedWorkspaces: config.trustedWorkspaces,
      plugins: config.pluginRoots,
    });
  const systemFor = (toolNames: string[]) => promptFor(toolNames).text;
  const assembled = promptFor(tools.map((t) => t.name));
  const system = assembled.text;
  warnings.push(...assembled.warnings);

  const warn = (text: string) => bus.publish({ type: "notice", text });
  const core = new SessionCore({
    id,
    dir,
    cwd,
    settings: config,
    model,
    adapter: createAdapter(model.endpoint),
    fold,
    writer,
    executor,
    policy,
    readTracker: new TurnReadTracker(),
    system,
    tools,
    hooks: opts.hooks,
    publish: (event) => bus.publish(event),
  });
  core.sandbox = sandbox;
  await attachParts(core, opts, {
    id,
    assembled,
    agents: agents.agents,
    bus,
    warn,
    toolNames: () => registry.names(),
  });
  // The SQLite addon loads at the first idle moment (typically while the model is thinking), so
  // the first turn-end ledger write does not wait for it; unref'd: it never keeps tern alive.
  setImmediate(preloadLedger).unref();
  // A resume brings the session's rows up to date: a turn a crash cut off is billed now, and a
  // process killed between a record line and its ledger write leaves no gap.
  if (opts.resume && billOf(fold.archive).length > 0)
    writeLedgerRows(home, id, fold.archive, (text) => warnings.push(text));
  // The record says what the model saw: a new context record whenever prompt or tools change.
  const recorded = fold.context;
  if (!recorded || recorded.system !== system || JSON.stringify(recorded.tools) !== JSON.stringify(tools)) {
    core.commit({ type: "context", system, tools, sources: core.contextFiles });
  }
  if (fold.model !== undefined && fold.model !== model.id) core.commit({ type: "config", model: model.id });

  // MCP is loaded only when a tool set is configured, and then in the background, with the
  // servers: the front end is usable at once and their tools join before the first request.
  // Loading it compiles the MCP SDK (~100 ms) on this thread: not before the front end has had
  // its turn (the built CLI's import() is a require() in the next microtask).
  wireToolSets(core, registry, systemFor, {
    configs: config.toolSets,
    before: afterPendingIo,
    cwd,
    home,
    env: opts.env,
    notify: (text) => bus.publishOrHold({ type: "notice", text }),
    limits: mcpTextLimit(config),
    elicit: opts.hooks.elicit,
    searchThreshold: config.mcpToolSearchThreshold,
    searchFound: recorded?.tools.map((t) => t.name),
  });

  const session = new Session(core, bus, async () => {
    await core.hookPoints?.sessionEnd("other");
    writer.close();
    core.unbilled.close();
    await core.checkpoints?.close();
    await (await core.toolSetsLoading)?.close();
    await core.languageServers?.close();
  });
  if (!opts.child) await attachSessionTelemetry(session, config, opts.env ?? process.env, warnings);
  return { session, resumed: opts.resume !== undefined, warnings };
}

/** The parts a session's core holds beside its turn: context notes, checkpoints, language servers, ledger, sub-agents, hooks. */
async function attachParts(
  core: SessionCore,
  opts: OpenSessionOptions,
  opened: {
    id: string;
    assembled: ReturnType<typeof assembleSystemPromptParts>;
    agents: ReturnType<typeof findAgents>["agents"];
    bus: EventBus;
    warn: (text: string) => void;
    /** Every tool the session has, not only those its mode offers now: a child runs in its own mode. */
    toolNames: () => string[];
  },
): Promise<void> {
  const { home, cwd, config } = opts;
  const { id, assembled, bus, warn } = opened;
  const fold = core.fold;
  core.planSandbox = planShellSandbox(cwd, home);
  core.contextFiles = contextSources(assembled);
  core.instructionNotes = new InstructionNotes(assembled.instructions.reader, cwd);
  core.instructionNotes.restore(fold.archive);
  core.todos.restore(fold.archive);
  core.checkpoints = Checkpointer.forSession({
    home,
    cwd,
    sessionId: id,
    settings: config.checkpoints,
    archive: fold.archive,
    commit: (record) => core.commit(record),
    notice: warn,
  });
  // A sub-agent borrows its parent's servers (a TypeScript server per child would cost ~230 MB).
  const publish = (event: EngineEvent) => bus.publish(event);
  core.languageServers = opts.child
    ? opts.child.languageServers?.borrowed()
    : LanguageServers.forSession({ cwd, config, env: core.toolEnv, publish });
  core.onBilled = () => writeLedgerRows(home, id, fold.archive, warn);
  core.tasks = new TaskRunner({
    ...{ id, cwd, home, hooks: opts.hooks, settings: config, agents: opened.agents, env: opts.env },
    ...{ depth: opts.child?.depth ?? 0, userHooks: opts.userHooks, redactEvents: opts.redactEvents },
    languageServers: core.languageServers,
    get model() {
      return core.model;
    },
    mode: () => core.policy.getMode(),
    toolNames: opened.toolNames,
    publish: (event) => bus.publish(event),
    open: (request) => openSession(request),
  });
  if (opts.userHooks && opts.userHooks.length > 0) {
    const { SessionHookPoints } = await loadSessionHooks();
    core.hookPoints = new SessionHookPoints(core, opts.userHooks, opts.child?.link.agent);
    core.hookPoints.sessionStart(opts.resume ? "resume" : "startup");
  }
}
