// The encoded history of a request body, kept between rounds for the wires whose builders map
// tern's messages to wire entries (Anthropic, Responses, Gemini, Bedrock; openai-body.ts does the
// same for Chat Completions). Every round resends the whole history, so encoding it again would
// make a round's cost grow with the conversation. The engine sends the fold's messages array,
// which only grows between compactions (a compaction, a result placed out of order, /clear or a
// rewind makes a new array: src/record/fold.ts), so the bytes of the wire entries that can no
// longer change are kept per array and only what was added since is encoded. The body's bytes
// equal JSON.stringify of the builder's whole body (test/provider/history-bytes.test.ts).
import { reusablePrefix, type PrefixMemo } from "../vocab/grown-prefix.js";
import type { Message, ToolSpec } from "../vocab/messages.js";

/** Wire entries built from `messages[from..]`, and the source index each entry started at. */
export interface BuiltEntries<E> {
  entries: E[];
  starts: number[];
}

interface Memo<E> extends PrefixMemo<Message> {
  buf: Buffer;
  length: number;
  /** The newest closed entry (its first block decides a thinking tool loop). */
  lastClosed: E | undefined;
  /** Whatever the wire carries from closed entries to later ones (Gemini: call ids). */
  carry: unknown;
}

/** The closed entries' bytes, and the entries after them, built again every round. */
export interface EncodedHistory<E> {
  closed: Buffer;
  /** The entry before `open` (closed: already in `closed`), if any. */
  lastClosed: E | undefined;
  open: E[];
}

type Memos = WeakMap<readonly Message[], Map<string, Memo<unknown>>>;

/** A memo table per wire (one per builder module). */
export function historyMemos(): Memos {
  return new WeakMap();
}

/** Appends `text` to a growing byte buffer (this file's memos and openai-body.ts's history). */
export function append(memo: { buf: Buffer; length: number }, text: string): void {
  const bytes = Buffer.byteLength(text, "utf8");
  if (memo.length + bytes > memo.buf.length) {
    // Earlier rounds' bodies may still be writing views of the old buffer: copy, never reuse it.
    const grown = Buffer.allocUnsafe(Math.max(memo.buf.length * 2, memo.length + bytes));
    memo.buf.copy(grown, 0, 0, memo.length);
    memo.buf = grown;
  }
  memo.length += memo.buf.write(text, memo.length, "utf8");
}

/**
 * The history of `messages` as wire entries: `build` maps messages from an index on (with the
 * wire's carried state) to entries. With `mergesLast` the newest entry may still change (a later
 * message of the same role joins it; the cache mark goes on it) and stays open; every entry
 * before it is closed and encoded once. `key` names the options the entries depend on.
 */
export function encodeHistory<E>(
  memos: Memos,
  messages: readonly Message[],
  key: string,
  mergesLast: boolean,
  build: (from: number, carry: unknown) => BuiltEntries<E> & { carry?: unknown },
): EncodedHistory<E> {
  let byKey = memos.get(messages);
  if (!byKey) memos.set(messages, (byKey = new Map()));
  let memo = byKey.get(key) as Memo<E> | undefined;
  const from = reusablePrefix(messages, memo);
  if (!memo || from === 0) {
    memo = {
      count: 0,
      last: messages[0],
      buf: Buffer.allocUnsafe(16 * 1024),
      length: 0,
      lastClosed: undefined,
      carry: undefined,
    };
    byKey.set(key, memo as Memo<unknown>);
  }
  const built = build(memo.count, memo.carry);
  memo.carry = built.carry;
  const closing = mergesLast ? Math.max(0, built.entries.length - 1) : built.entries.length;
  if (closing > 0) {
    const json = built.entries.slice(0, closing).map((entry) => JSON.stringify(entry));
    append(memo as Memo<unknown>, (memo.length > 0 ? "," : "") + json.join(","));
    memo.lastClosed = built.entries[closing - 1];
  }
  // Messages before the open entry's first one are done with (all of them when none stays open).
  memo.count = closing < built.entries.length ? built.starts[closing] : messages.length;
  memo.last = messages[memo.count - 1];
  return {
    closed: memo.buf.subarray(0, memo.length),
    lastClosed: memo.lastClosed,
    open: built.entries.slice(closing),
  };
}

/** A message builder's shape shared by the Anthropic and Bedrock wires. */
type MessageBuilder<E> = (
  messages: readonly Message[],
  images: boolean,
  toolsAsText: boolean,
  from: number,
  starts: number[],
) => E[];

/**
 * The history of a wire built by such a builder, memoised per images/tools-as-text setting, with
 * its tail (the newest closed entry and the open ones: where a thinking tool loop is decided).
 */
export function encodeMessages<E>(
  memos: Memos,
  request: { messages: readonly Message[]; images: boolean; tools: readonly ToolSpec[] },
  build: MessageBuilder<E>,
): EncodedHistory<E> & { tail: E[] } {
  const toolsAsText = request.tools.length === 0;
  const history = encodeHistory<E>(
    memos,
    request.messages,
    `${request.images}:${toolsAsText}`,
    true,
    (from) => {
      const starts: number[] = [];
      return { entries: build(request.messages, request.images, toolsAsText, from, starts), starts };
    },
  );
  return { ...history, tail: history.lastClosed ? [history.lastClosed, ...history.open] : history.open };
}

/**
 * The body as chunks: `body`'s JSON with the value of `key` replaced by the array of `history`'s
 * entries (closed bytes, then the open entries). Keys whose value is in `encoded` take that text.
 */
export function bodyChunks(
  body: Record<string, unknown>,
  key: string,
  history: EncodedHistory<unknown>,
  encoded: Record<string, string | undefined> = {},
): Buffer[] {
  const before: string[] = [];
  const after: string[] = [];
  let seen = false;
  for (const [name, value] of Object.entries(body)) {
    if (name === key) {
      seen = true;
      continue;
    }
    const json = encoded[name] ?? JSON.stringify(value);
    if (json === undefined) continue; // as JSON.stringify leaves undefined values out
    (seen ? after : before).push(`${JSON.stringify(name)}:${json}`);
  }
  const open = history.open.map((entry) => JSON.stringify(entry)).join(",");
  const glue = history.closed.length > 0 && open !== "" ? "," : "";
  const head = `{${before.join(",")}${before.length > 0 ? "," : ""}${JSON.stringify(key)}:[`;
  const tail = `${glue}${open}]${after.length > 0 ? "," : ""}${after.join(",")}}`;
  return [Buffer.from(head, "utf8"), history.closed, Buffer.from(tail, "utf8")];
}

const toolJson = new WeakMap<readonly ToolSpec[], Map<string, string>>();

/** `JSON.stringify(make())`, kept per tool list and `name` (the list is the same every round). */
export function toolsJson(tools: readonly ToolSpec[], name: string, make: () => unknown): string {
  let byName = toolJson.get(tools);
  if (!byName) toolJson.set(tools, (byName = new Map()));
  let json = byName.get(name);
  if (json === undefined) {
    json = JSON.stringify(make());
    byName.set(name, json);
  }
  return json;
}

/** Where each wire entry started: call after each message's push with the entries so far. */
export function noteStart(starts: number[], entries: readonly unknown[], index: number): void {
  while (starts.length < entries.length) starts.push(index);
}
