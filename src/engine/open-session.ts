// Opens a session for a front end: a new one, or a resumed one rebuilt by replaying its record
// (R-REC-1), with a crash-cut exchange closed first (R-REC-3). Wires provider, tools, prompt.
import { endedWithLastRun, endUnendedJobs } from "./job-records.js";
import { join } from "node:path";
import { IMAGE_LIMIT_BYTES } from "../config/image-limits.js";
import { redactDeep, registerSecretsFromEnv } from "../config/secrets.js";
import type { Config, ResolvedModel } from "../config/types.js";
import { assembleSystemPromptParts } from "../prompt/assemble.js";
import { createAdapter } from "../provider/index.js";
import { RecordFold } from "../record/fold.js";
import { pruneClearedImages } from "../record/attachments.js";
import { billOf } from "../record/bill.js";
import { preloadLedger } from "../record/ledger.js";
import { loadRecord } from "../record/load.js";
import { replayInto } from "../record/replay.js";
import { recoverOnLoad } from "../record/quiesce.js";
import { readUnbilled, removeUnbilled } from "../record/unbilled.js";
import { commitChecked } from "./commit.js";
import { createSession, openSessionWriter, recordFile } from "../record/store.js";
import type { RecordWriter } from "../record/writer.js";
import { ApprovalPolicy } from "../tools/policy/approval.js";
import { ToolExecutor } from "../tools/executor.js";
import { createBuiltinRegistry } from "../tools/builtin-registry.js";
import { TurnReadTracker } from "../tools/read-tracker.js";
import { EventBus } from "./bus.js";
import { Checkpointer } from "./undo/checkpoints.js";
import { SessionCore, type SessionHooks } from "./core.js";
import { planSandboxAvailable, planShellSandbox, shellSandbox } from "./sandbox.js";
import { Session } from "./session.js";
import { wireToolSets } from "./tool-sync.js";
import { loadSessionHooks } from "./hook-points/index.js";
import { InstructionNotes } from "./instruction-notes.js";
import { contextSources } from "./context-sources.js";
import { priceFor, writeLedgerRows } from "./ledger-write.js";
import { closeChildrenTurns } from "./child-recovery.js";
import type { ConfiguredHook } from "../hooks/events.js";
import { findAgents } from "../agents/files.js";
import type { ChildOptions } from "./subagents/child-options.js";
import { offerTools } from "./subagents/offered-tools.js";
import { editToolFor } from "../config/edit-tool.js";
import { offerEditTool } from "../tools/edit-tool-offer.js";
import { TaskRunner } from "./subagents/task-runner.js";
import { LanguageServers } from "./language-servers.js";
import type { EngineEvent } from "./door/events.js";
import { findResumeDir, type ResumeTarget } from "./resume-target.js";

export { peekSessionModel, type ResumeTarget } from "./resume-target.js";
import { attachSessionTelemetry } from "./session-telemetry.js";

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
  const fold = new RecordFold();
  let writer: RecordWriter;
  let id: string;
  let dir: string;

  if (opts.resume) {
    ({ id, dir } = findResumeDir(home, cwd, opts.resume));
    const loaded = loadRecord(recordFile(dir));
    warnings.push(...loaded.warnings);
    replayInto(fold, loaded);
    writer = openSessionWriter(dir, { lines: loaded.lines });
    // A crash between creating the folder and the first line leaves an empty record: it gets
    // the session_start every record begins with before anything else is written.
    if (fold.archive.length === 0)
      commitChecked(fold, writer, { type: "session_start", id, cwd, model: model.id });
    // Jobs do not outlive their run (R-JOB-2): the resume says which ended with it, and closes
    // the ones a crash left without a job_end.
    const jobsNote = endedWithLastRun(fold.archive);
    if (jobsNote) warnings.push(jobsNote);
    await endUnendedJobs(fold.archive, (record) => commitChecked(fold, writer, record));
    // A turn a crash cut off is closed `aborted`, priced like any other, and billed now.
    for (const record of recoverOnLoad(fold, { cost: priceFor(config, model), unbilled: readUnbilled(dir) }))
      commitChecked(fold, writer, record);
    removeUnbilled(dir);
    // R-REC (amended): the sub-agents a crash cut off are closed and billed with their parent.
    if (!opts.child)
      await closeChildrenTurns(id, fold.archive, { home, cwd, config, model, warn: (t) => warnings.push(t) });
    // A crash between `cleared` and the image deletion must not keep the cleared images forever.
    pruneClearedImages(dir, fold.archive);
  } else {
    const created = createSession(home, { cwd, model: model.id, parent: opts.child?.link });
    ({ id, dir, writer } = created);
    replayInto(fold, loadRecord(recordFile(dir)));
  }

  const registry = createBuiltinRegistry();
  const env = opts.env ?? process.env;
  const { trustedWorkspaces } = config;
  const agents = findAgents({
    cwd,
    home,
    userHome: env.HOME,
    compat: config.compat,
    trustedWorkspaces,
    plugins: config.pluginRoots,
  });
  if (!opts.child) warnings.push(...agents.warnings);
  offerTools(registry, agents.agents, opts.child);
  offerEditTool(registry, editToolFor(model.id, model.info));
  const bus = new EventBus(opts.redactEvents ? redactDeep : undefined);
  let policy: ApprovalPolicy | undefined;
  const sandbox = shellSandbox(
    config,
    cwd,
    home,
    opts.hooks,
    () => policy,
    (text) => bus.publishOrHold({ type: "notice", text }),
  );
  policy = new ApprovalPolicy({
    mode: config.permissions.mode,
    allow: config.permissions.allow,
    deny: config.permissions.deny,
    ask: config.permissions.ask,
    cwd,
    sandboxedShell: sandbox !== undefined,
    ternHome: home,
    planSandbox: planSandboxAvailable,
  });
  registerSecretsFromEnv(process.env, config);
  const executor = new ToolExecutor(registry, policy, {
    parallel: config.parallelTools,
    limits: {
      maxChars: config.toolOutputLimit,
      maxImageBytes: IMAGE_LIMIT_BYTES[model.endpoint.api],
      fullOutputDir: join(dir, "tool-output"),
    },
  });
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
    ...{ id, cwd, home, hooks: opts.hooks, settings: config, agents: agents.agents, env: opts.env },
    ...{ depth: opts.child?.depth ?? 0, userHooks: opts.userHooks, redactEvents: opts.redactEvents },
    languageServers: core.languageServers,
    get model() {
      return core.model;
    },
    mode: () => core.policy.getMode(),
    toolNames: () => core.tools.map((t) => t.name),
    publish: (event) => bus.publish(event),
    open: (request) => openSession(request),
  });
  if (opts.userHooks && opts.userHooks.length > 0) {
    const { SessionHookPoints } = await loadSessionHooks();
    core.hookPoints = new SessionHookPoints(core, opts.userHooks, opts.child?.link.agent);
    core.hookPoints.sessionStart(opts.resume ? "resume" : "startup");
  }
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
    core.checkpoints?.close();
    await (await core.toolSetsLoading)?.close();
    await core.languageServers?.close();
  });
  if (!opts.child) await attachSessionTelemetry(session, config, opts.env ?? process.env, warnings);
  return { session, resumed: opts.resume !== undefined, warnings };
}
