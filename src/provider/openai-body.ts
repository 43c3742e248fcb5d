// The request body bytes for openai-chat, built incrementally. Every round resends the whole
// history, so joining and encoding it again would make a long turn quadratic in CPU. The engine
// sends the fold's messages array, which only grows between compactions (a compaction, /clear or
// rewind makes a new array), so the encoded history is kept per array and only the messages added
// since the last round are encoded and appended. The bytes equal JSON.stringify(buildChatBody()).
import {
  bodyTail,
  buildChatBody,
  type ChatWireOptions,
  currentTurnStart,
  DEFAULT_WIRE,
  echoField,
  mapMessage,
} from "./openai-request.js";
import { append, toolsJson } from "./history-bytes.js";
import type { NormalizedRequest } from "./types.js";
import { reusablePrefix, type PrefixMemo } from "../vocab/grown-prefix.js";
import type { Message } from "../vocab/messages.js";

interface EncodedHistory extends PrefixMemo<Message> {
  buf: Buffer;
  length: number;
  /** The current turn's start when encoded: echoed reasoning is only valid inside that turn. */
  turnStart: number;
  echoed: boolean;
  wire: ChatWireOptions;
}

const histories = new WeakMap<readonly Message[], EncodedHistory>();

function hasImage(message: Message): boolean {
  return message.role !== "assistant" && message.content.some((part) => part.type === "image");
}

function encodedHistory(
  request: NormalizedRequest,
  from: number,
  turnStart: number,
  wire: ChatWireOptions,
): EncodedHistory {
  const messages = request.messages;
  const history: EncodedHistory =
    from > 0
      ? histories.get(messages)!
      : {
          count: 0,
          last: messages[0],
          buf: Buffer.allocUnsafe(64 * 1024),
          length: 0,
          turnStart,
          echoed: false,
          wire,
        };
  history.turnStart = turnStart;
  const added: string[] = [];
  for (let i = from; i < messages.length; i++) {
    const echo = echoField(messages[i], i > turnStart, wire);
    if (echo) history.echoed = true;
    // Image-free messages never take the multimodal bridge, so each maps to one wire message.
    added.push(JSON.stringify(mapMessage(messages[i], request.images, () => {}, echo)));
  }
  if (added.length > 0) append(history, (history.length > 0 ? "," : "") + added.join(","));
  history.count = messages.length;
  history.last = messages[messages.length - 1];
  histories.set(messages, history);
  return history;
}

/** The body as chunks to write in order (the history chunk is shared with later rounds: never modify it). */
export function chatBodyChunks(request: NormalizedRequest, wire: ChatWireOptions = DEFAULT_WIRE): Buffer[] {
  const messages = request.messages;
  const cached = histories.get(messages);
  const turnStart = currentTurnStart(messages);
  // The known prefix holds no image (it would not have been kept): only new messages are checked.
  let from = reusablePrefix(messages, cached);
  // A new turn ends the echo of the previous turn's reasoning: encode those messages again (once a turn).
  if (cached && (cached.wire !== wire || (cached.echoed && cached.turnStart !== turnStart))) from = 0;
  if (messages.length === 0 || messages.slice(from).some(hasImage)) {
    histories.delete(messages);
    return [Buffer.from(JSON.stringify(buildChatBody(request, wire)), "utf8")];
  }
  const system = request.system ? JSON.stringify({ role: "system", content: request.system }) : "";
  const history = encodedHistory(request, from, turnStart, wire);
  const head = `{"model":${JSON.stringify(request.model)},"messages":[${system}${system ? "," : ""}`;
  const tail = `],"stream":true,"stream_options":{"include_usage":true}${tailJson(request, wire)}}`;
  return [Buffer.from(head, "utf8"), history.buf.subarray(0, history.length), Buffer.from(tail, "utf8")];
}

/** `,"max_tokens":…,"tools":[…]…` in bodyTail's order, the tool list's JSON kept per array (it is the same every round). */
function tailJson(request: NormalizedRequest, wire: ChatWireOptions): string {
  let out = "";
  for (const [key, value] of Object.entries(bodyTail(request, wire))) {
    const json = key === "tools" ? toolsJson(request.tools, "chat", () => value) : JSON.stringify(value);
    out += `,${JSON.stringify(key)}:${json}`;
  }
  return out;
}

/** The same body as one string (tests compare it with JSON.stringify(buildChatBody())). */
export function serializeChatBody(request: NormalizedRequest, wire: ChatWireOptions = DEFAULT_WIRE): string {
  return Buffer.concat(chatBodyChunks(request, wire)).toString("utf8");
}
