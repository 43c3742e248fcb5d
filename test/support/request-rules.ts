// What the real providers refuse in a request body, in one place: the fake provider checks every
// request it receives with `requestViolations` (so every test that talks to it checks legality),
// and tests that capture a body call the per-protocol checkers directly.
//
// The rule every protocol shares: a tool call the model made is answered by exactly one tool
// result, in the place the protocol requires, and no tool result answers a call that is not
// there. A cut call answered by a `not_executed` / `interrupted` result is answered: the wire
// sees a tool result like any other. Messages name the id, as the real APIs do.

import { bedrockViolations, geminiViolations } from "./cloud-request-rules.js";

export type WireProtocol =
  | "openai-chat"
  | "anthropic-messages"
  | "openai-responses"
  | "google-gemini"
  | "bedrock-converse";

/** The protocol a request path speaks (`…/chat/completions`, `…/messages`, `…/responses`). */
export function protocolOfPath(path: string): WireProtocol | undefined {
  const bare = path.split("?")[0].replace(/\/+$/, "");
  if (bare.endsWith("/chat/completions")) return "openai-chat";
  if (bare.endsWith("/messages")) return "anthropic-messages";
  if (bare.endsWith("/responses")) return "openai-responses";
  if (bare.endsWith(":streamGenerateContent")) return "google-gemini";
  if (bare.endsWith("/converse-stream")) return "bedrock-converse";
  return undefined;
}

/** Every rule the body breaks for its protocol (empty = a real provider would accept it). */
export function requestViolations(protocol: WireProtocol, body: unknown): string[] {
  if (protocol === "openai-chat") return chatToolViolations(body);
  if (protocol === "anthropic-messages") return anthropicViolations(body);
  if (protocol === "google-gemini") return geminiViolations(body);
  if (protocol === "bedrock-converse") return bedrockViolations(body);
  return responsesViolations(body);
}

/** The HTTP answer the real API gives a body that breaks its rules: status 400, its error shape. */
export function refusalBody(protocol: WireProtocol, violations: readonly string[]): string {
  const message = violations.join("; ");
  if (protocol === "anthropic-messages") {
    return JSON.stringify({
      type: "error",
      error: { type: "invalid_request_error", message },
      request_id: "req_fake_refused",
    });
  }
  if (protocol === "google-gemini")
    return JSON.stringify({ error: { code: 400, message, status: "INVALID_ARGUMENT" } });
  if (protocol === "bedrock-converse") return JSON.stringify({ message });
  const param = protocol === "openai-chat" ? "messages" : "input";
  return JSON.stringify({ error: { message, type: "invalid_request_error", param, code: null } });
}

/**
 * Chat Completions: an assistant message with `tool_calls` is followed, before any other message,
 * by one `tool` message per `tool_call_id`; a `tool` message answers a call of that message.
 * Ids need only be unique within one assistant message (local servers reuse `call_0` per turn);
 * OpenAI takes ids of at most 40 characters.
 */
export function chatToolViolations(body: any): string[] {
  const problems: string[] = [];
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  let i = 0;
  while (i < messages.length) {
    const message = messages[i];
    if (message?.role === "tool") {
      problems.push(
        `messages.[${i}]: a 'tool' message (tool_call_id ${message.tool_call_id}) must be a response to a preceding message with 'tool_calls'`,
      );
      i++;
      continue;
    }
    const calls: any[] =
      message?.role === "assistant" && Array.isArray(message.tool_calls) ? message.tool_calls : [];
    i++;
    if (calls.length === 0) continue;
    const owed = new Set<string>();
    for (const call of calls) {
      if (owed.has(call?.id)) problems.push(`messages.[${i - 1}]: duplicate tool_call_id ${call?.id}`);
      if (String(call?.id).length > 40)
        problems.push(
          `Invalid 'messages[${i - 1}].tool_calls.id': string too long. Expected a string with maximum length 40`,
        );
      owed.add(call?.id);
    }
    const answered = new Set<string>();
    for (; i < messages.length && messages[i]?.role === "tool"; i++) {
      const id = messages[i].tool_call_id;
      if (answered.has(id)) problems.push(`messages.[${i}]: tool_call_id ${id} is answered twice`);
      else if (!owed.has(id))
        problems.push(
          `messages.[${i}]: tool_call_id ${id} answers no call of the assistant message before it`,
        );
      answered.add(id);
    }
    const missing = [...owed].filter((id) => !answered.has(id));
    if (missing.length > 0) {
      problems.push(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`,
      );
    }
  }
  return problems;
}

/**
 * Anthropic Messages: each `tool_use` block is answered by a `tool_result` block with its id in
 * the very next message (a user message, tool results before anything else); a `tool_result`
 * answers a `tool_use` of the message right before; `tool_use` ids are unique in the request.
 */
export function anthropicToolViolations(body: any): string[] {
  const problems: string[] = [];
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const seenUses = new Set<string>();
  let previousUses = new Set<string>();
  messages.forEach((message, i) => {
    const blocks: any[] = Array.isArray(message?.content) ? message.content : [];
    const uses = new Set<string>();
    if (message?.role === "assistant") {
      blocks.forEach((block, b) => {
        if (block?.type !== "tool_use") return;
        if (seenUses.has(block.id))
          problems.push(`messages.${i}.content.${b}: \`tool_use\` ids must be unique (${block.id})`);
        seenUses.add(block.id);
        uses.add(block.id);
      });
    }
    const answered = new Set<string>();
    let pastResults = false;
    blocks.forEach((block, b) => {
      if (block?.type !== "tool_result") {
        pastResults = true;
        return;
      }
      const id = block.tool_use_id;
      const where = `messages.${i}.content.${b}`;
      if (message?.role !== "user") problems.push(`${where}: a tool_result (${id}) outside a user message`);
      else if (!previousUses.has(id))
        problems.push(
          `${where}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      else if (answered.has(id)) problems.push(`${where}: tool_use_id ${id} is answered twice`);
      else if (pastResults)
        problems.push(
          `${where}: the tool_result for ${id} comes after other content; tool_result blocks must come first`,
        );
      answered.add(id);
    });
    const missing = [...previousUses].filter((id) => !answered.has(id));
    if (missing.length > 0) {
      problems.push(
        `messages.${i - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
    previousUses = uses;
  });
  if (previousUses.size > 0) {
    problems.push(
      `messages.${messages.length - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${[...previousUses].join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
    );
  }
  return problems;
}

/**
 * Anthropic's other published rules: tool blocks need tool definitions ("Requests which include
 * tool_use or tool_result blocks must define tools"), tool_choice needs tools, roles alternate
 * starting with the user, max_tokens is set, no empty text block and no message whose only text is
 * blank, tool ids of letters, digits, `_` and `-`; plus the tool-call pairing.
 */
export function anthropicViolations(body: any): string[] {
  const problems: string[] = [];
  const tools: unknown[] = Array.isArray(body?.tools) ? body.tools : [];
  if (!Number.isInteger(body?.max_tokens) || body.max_tokens < 1) problems.push("max_tokens missing");
  if (body?.tool_choice !== undefined && tools.length === 0) problems.push("tool_choice without tools");
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  if (messages[0]?.role !== "user") problems.push("first message is not a user message");
  messages.forEach((message, i) => {
    if (i > 0 && messages[i - 1].role === message.role)
      problems.push(`messages ${i - 1} and ${i} share a role`);
    const blocks: any[] = Array.isArray(message.content) ? message.content : [];
    for (const block of blocks) {
      if ((block.type === "tool_use" || block.type === "tool_result") && tools.length === 0) {
        problems.push(`message ${i} holds a ${block.type} block but the request defines no tools`);
      }
      if (block.type === "text" && block.text === "") problems.push(`message ${i} holds an empty text block`);
      const id =
        block.type === "tool_use" ? block.id : block.type === "tool_result" ? block.tool_use_id : undefined;
      if (id !== undefined && !/^[a-zA-Z0-9_-]+$/.test(String(id)))
        problems.push(
          `messages.${i}: ${block.type} id ${id}: String should match pattern '^[a-zA-Z0-9_-]+$'`,
        );
    }
    // "text content blocks must contain non-whitespace text": a message whose only text is blank.
    const texts = blocks.filter((block) => block.type === "text" && block.text !== "");
    if (texts.length > 0 && texts.every((block) => String(block.text).trim() === ""))
      problems.push(`message ${i}: text content blocks must contain non-whitespace text`);
  });
  return [...problems, ...anthropicToolViolations(body)];
}

/**
 * Responses: every `function_call` item's `call_id` has one `function_call_output` after it, and
 * every output answers a call before it; call ids are unique in the input and at most 64 long.
 */
export function responsesToolViolations(body: any): string[] {
  const problems: string[] = [];
  const input: any[] = Array.isArray(body?.input) ? body.input : [];
  const calls = new Set<string>();
  const outputs = new Set<string>();
  input.forEach((item, k) => {
    if (typeof item?.call_id === "string" && item.call_id.length > 64)
      problems.push(
        `Invalid 'input[${k}].call_id': string too long. Expected a string with maximum length 64`,
      );
    if (item?.type === "function_call") {
      if (calls.has(item.call_id))
        problems.push(`input[${k}]: duplicate function_call call_id ${item.call_id}`);
      calls.add(item.call_id);
    } else if (item?.type === "function_call_output") {
      if (!calls.has(item.call_id))
        problems.push(
          `input[${k}]: No tool call found for function call output with call_id ${item.call_id}.`,
        );
      else if (outputs.has(item.call_id))
        problems.push(`input[${k}]: function call output for call_id ${item.call_id} appears twice`);
      else outputs.add(item.call_id);
    }
  });
  for (const id of calls)
    if (!outputs.has(id)) problems.push(`No tool output found for function call ${id}.`);
  return problems;
}

/**
 * What the Responses API refuses in a stateless (`store: false`) request: item ids the server
 * never stored, reasoning without its encrypted content, tool_choice without tools, function_call
 * items when no tools are defined; plus the tool-call pairing. tern always streams without
 * storing, so a body that does not is refused here too.
 */
export function responsesViolations(body: any): string[] {
  const problems: string[] = [];
  if (body?.stream !== true) problems.push("stream is not true");
  if (body?.store !== false) problems.push("store is not false");
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
  if (body?.tool_choice !== undefined && tools.length === 0) problems.push("tool_choice without tools");
  const input: any[] = Array.isArray(body?.input) ? body.input : [];
  input.forEach((item, i) => {
    if (item?.id !== undefined) problems.push(`input ${i} (${item.type ?? item.role}) carries a server id`);
    if (item?.type === "reasoning" && typeof item.encrypted_content !== "string")
      problems.push(`input ${i} is a reasoning item without encrypted_content`);
    if (item?.type === "function_call" && tools.length === 0)
      problems.push(`input ${i} is a function_call but no tools are defined`);
  });
  return [...problems, ...responsesToolViolations(body)];
}
