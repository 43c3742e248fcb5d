// ACP's session/prompt: one turn, or one slash command. A prompt sent while a turn runs is a
// follow-up (R-TURN-7): the engine joins it to that turn after its tool batch (answered with that
// turn's stop) or starts the next; a cancel drops it (`cancelled`).
import * as acp from "@agentclientprotocol/sdk";
import type { TurnOutcome } from "../engine/door/outcome.js";
import type { AcpAgentOptions, AgentState, Live } from "./agent-state.js";
import { remoteCommand, runRemoteCommand, unknownCommand } from "./commands.js";
import { promptContent, promptText } from "./prompt-content.js";
import { acpStopReason } from "./stop-reason.js";

export async function answerPrompt(
  state: AgentState,
  opts: AcpAgentOptions,
  params: acp.PromptRequest,
): Promise<acp.PromptResponse> {
  const entry = state.live(params.sessionId);
  const session = entry.session;
  const content = promptContent(params.prompt, session.status().model.endpoint.api);
  const text = promptText(content).trim();
  const unknown = unknownCommand(text);
  if (unknown) {
    // A mistyped command is answered, never sent to the model as a prompt.
    state.send(entry, {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: `${unknown}\n` },
    });
    await entry.sent;
    return { stopReason: "end_turn" };
  }
  if (remoteCommand(text)) return answerCommand(state, opts, entry, text);
  // While a turn runs this is a follow-up (R-TURN-7): it joins that turn after its tool batch
  // (answered with that turn's stop) or starts the next; a cancel drops it (`cancelled`).
  const outcome = await session.send({ type: "prompt", content });
  await entry.sent;
  return { stopReason: stopOrThrow(outcome) };
}

/** A slash command run for the client: its output as message chunks, a mode it changed announced. */
async function answerCommand(
  state: AgentState,
  opts: AcpAgentOptions,
  entry: Live,
  text: string,
): Promise<acp.PromptResponse> {
  const session = entry.session;
  const modeBefore = session.status().mode;
  entry.commandAbort = new AbortController();
  const outcome = await runRemoteCommand(text, {
    side: entry.side,
    signal: entry.commandAbort.signal,
    session,
    config: entry.config,
    home: opts.home ?? process.env.TERN_HOME ?? "",
    cwd: entry.cwd,
    baseUrl: opts.defaults.baseUrl,
    cost: () => entry.cost,
    say: (out) =>
      state.send(entry, {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: out.endsWith("\n") ? out : `${out}\n` },
      }),
  });
  entry.commandAbort = undefined;
  entry.commands.refresh();
  const mode = session.status().mode;
  if (mode !== modeBefore) state.send(entry, { sessionUpdate: "current_mode_update", currentModeId: mode });
  await entry.sent;
  return { stopReason: outcome ? stopOrThrow(outcome) : "end_turn" };
}

function stopOrThrow(outcome: TurnOutcome): acp.StopReason {
  if (outcome.stopReason === "failed") {
    const error = outcome.error;
    throw acp.RequestError.internalError(
      error ? { class: error.class } : undefined,
      error ? error.message : "the turn failed",
    );
  }
  return acpStopReason(outcome.stopReason);
}
