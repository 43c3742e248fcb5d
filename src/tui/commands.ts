// Slash commands in the Ink UI (R-UI-3, R-UI-4): the commands themselves are the shared table
// (src/commands); here is only when they may run. Report-only ones answer at once, busy or
// not; session-changing ones stop the work first and run in the order typed; the rest wait
// for an idle prompt, and none of those run during a compaction.
import { contextPercent } from "../vocab/context-share.js";
import type { CommandHost } from "../commands/host.js";
import { unknownCommandText } from "../commands/suggest.js";
import { findCommand, parseCommandLine, timingOf } from "../commands/table.js";
import type { UiControl } from "./controller-types.js";
import { sessionsOf } from "../workspace/session-queries.js";
import { agentsOf, agentsPicker, mcpPicker } from "./list-pickers.js";
import { modelPicker } from "./model-picker.js";
import { applyTheme } from "./ansi.js";
import { isTheme, themePicker } from "./theme-picker.js";
import { offerForce, openRewind } from "./rewind-picker.js";
import { newPicker } from "./session-picker.js";
import { askSideQuestion } from "./side.js";

export const KEY_HINTS = [
  "Enter while busy queues a follow-up; empty Enter sends the queue now; ↑ on an empty prompt edits the last queued.",
  "Ctrl+C interrupts; Ctrl+D on an empty prompt exits. / opens the command menu, @ completes files, Tab completes.",
  "Shift+Enter or Alt+Enter (or \\ then Enter) starts a new line; Ctrl+G edits the prompt in $EDITOR.",
  "Ctrl+A/E line start/end, Alt+B/F or Ctrl+←/→ words, Ctrl+W/K/U cut, Ctrl+Y puts back; ↑/↓ history.",
  "Ctrl+R searches earlier prompts; Ctrl+V attaches an image from the clipboard (text pastes as text).",
  "Ctrl+_ undoes, Ctrl+X Ctrl+_ or Alt+_ redoes; Esc Esc on an empty prompt rewinds; /vim vim keys; /theme colours.",
];

/** `/resume` without an id: the picker of the workspace's sessions opens (R-UI-17, picker-flow.ts). */
function openPicker(ctl: UiControl): void {
  // The person's sessions: a sub-agent's is reached through its parent (R-REC amended 2026-12-07).
  const entries = sessionsOf(ctl.deps.home, ctl.deps.cwd).filter((s) => !s.error && !s.parent?.call);
  ctl.store.dispatch({ type: "picker", picker: newPicker(entries, ctl.session.id) });
}

function hostFor(ctl: UiControl): CommandHost {
  const say = (text: string) => ctl.print("info", text);
  return {
    session: ctl.session,
    config: ctl.config,
    home: ctl.deps.home,
    cwd: ctl.deps.cwd,
    baseUrl: ctl.deps.baseUrl,
    keyHints: KEY_HINTS,
    cost: () => ctl.state.status.cost,
    sideCost: () => ctl.state.status.sideCost,
    print: say,
    error: (text) => ctl.print("error", text),
    statusFacts: () => {
      const s = ctl.state.status;
      const pct = contextPercent(s.lastPrompt, s.contextWindow);
      return [
        `context ${pct}% (${s.lastPrompt}/${s.contextWindow})`,
        `tokens ${s.tokens}`,
        ctl.state.busy ? "busy" : "idle",
        `queued ${ctl.state.queue.length}`,
      ];
    },
    work: (fn, phase) => ctl.runWork(fn, { kind: phase }),
    modelChanged: (model) =>
      ctl.store.dispatch({
        type: "session",
        model: model.id,
        sessionId: ctl.session.id,
        contextWindow: model.info.contextWindow,
        thinking: model.thinking,
        priced: model.info.pricing !== undefined,
      }),
    switchTo: (id) => ctl.switchTo(id),
    pickSession: () => openPicker(ctl),
    pickRewind: () => openRewind(ctl),
    offerForce: (line) => offerForce(ctl, line),
    setTheme: (name) => {
      if (!isTheme(name)) return ctl.store.dispatch({ type: "picker", picker: themePicker() });
      applyTheme(name);
      say(`theme: ${name} (set "ui": {"theme": "${name}"} in config.json to keep it)`);
    },
    toggleVim: () => {
      const on = !ctl.state.vim;
      ctl.store.dispatch({ type: "vim", mode: on ? "insert" : undefined });
      return on;
    },
    pickAgents: () =>
      ctl.store.dispatch({
        type: "picker",
        picker: agentsPicker(agentsOf(ctl.deps.cwd, ctl.deps.home, ctl.config)),
      }),
    pickMcp: () => ctl.store.dispatch({ type: "picker", picker: mcpPicker(ctl.config) }),
    pickModel: () =>
      ctl.store.dispatch({ type: "picker", picker: modelPicker(ctl.config, ctl.session.status().model.id) }),
    side: (question) => void askSideQuestion(ctl, question),
    quit: () => ctl.quit(),
  };
}

export async function runSlash(ctl: UiControl, text: string): Promise<void> {
  const { name, args, rest } = parseCommandLine(text);
  const say = (out: string) => ctl.print("info", out);
  const command = findCommand(name);
  if (!command) return say(unknownCommandText(name));
  const timing = timingOf(command, args);
  if (ctl.isCompacting && timing !== "now" && timing !== "quit") {
    say(`${name} is not available while compacting (Ctrl+C cancels the compaction)`);
    return;
  }
  switch (timing) {
    case "quit":
    case "now":
      await command.run(hostFor(ctl), args, rest);
      return;
    case "switch":
      ctl.interruptForSwitch();
      // The host is built inside: an earlier switch in the chain may have replaced the session.
      await ctl.serial(async () => {
        await ctl.settled();
        await command.run(hostFor(ctl), args, rest);
      });
      return;
    case "idle":
      if (ctl.state.busy) {
        const compact = command.name === "/compact";
        say(
          compact
            ? `${name} waits for an idle prompt`
            : `${name} waits for an idle prompt: press Ctrl+C to interrupt the turn first`,
        );
        return;
      }
      await command.run(hostFor(ctl), args, rest);
  }
}
