// The tolerant tool-call accumulator (R-PROV-2). Providers disagree on how tool-call deltas are
// shaped (missing index, ids on later chunks, indexes from 1, empty names in continuations,
// whole calls in one delta); this folds them all into ordered calls. Arguments stay raw text.
import type { ToolCall } from "../vocab/messages.js";

/** One wire delta, already lifted out of the protocol's JSON. */
export interface ToolCallDelta {
  index?: number | null;
  id?: string | null;
  name?: string | null;
  arguments?: string | null;
  /** Extra top-level fields of the call to echo back verbatim (Gemini `extra_content`). */
  extra?: Record<string, unknown>;
}

/** `index` is the call's position in this message (0, 1, …), whatever index the wire used. */
export type ToolCallEvent =
  | { type: "tool_call_start"; index: number; id: string; name: string }
  | { type: "tool_call_delta"; index: number; argumentsDelta: string };

interface Slot {
  position: number;
  wireIndex: number | undefined;
  id: string;
  name: string;
  arguments: string;
  /** Argument text received before the start event could be sent (id or name still unknown). */
  held: string;
  started: boolean;
  extra: Record<string, unknown> | undefined;
}

export class ToolCallAccumulator {
  private readonly slots: Slot[] = [];
  /** The earliest slot holding each id and the newest slot opened at each wire index: a stream
   * with hundreds of calls must not scan every slot for each delta. */
  private readonly byId = new Map<string, Slot>();
  private readonly byWireIndex = new Map<number, Slot>();

  get size(): number {
    return this.slots.length;
  }

  /** Folds one delta in; returns the events it makes visible (start once id and name are known, then argument text). */
  apply(delta: ToolCallDelta): ToolCallEvent[] {
    const slot = this.slotFor(delta);
    if (delta.id && !slot.id) this.name(slot, delta.id);
    // Continuations may carry `name: ""`; an empty name never overwrites a stored one.
    if (delta.name && !slot.name) slot.name = delta.name;
    if (delta.extra) slot.extra = { ...slot.extra, ...delta.extra };
    const text = typeof delta.arguments === "string" ? delta.arguments : "";
    slot.arguments += text;
    const events: ToolCallEvent[] = [];
    if (!slot.started) {
      slot.held += text;
      if (slot.id && slot.name) events.push(...this.start(slot));
    } else if (text) {
      events.push({ type: "tool_call_delta", index: slot.position, argumentsDelta: text });
    }
    return events;
  }

  /** Starts calls that never got an id (an id is synthesized) so every call is announced before `done`. */
  flush(): ToolCallEvent[] {
    const events: ToolCallEvent[] = [];
    for (const slot of this.slots) {
      if (slot.started || !this.isReal(slot)) continue;
      if (!slot.id) this.name(slot, `call_tern_${slot.position}`);
      events.push(...this.start(slot));
    }
    return events;
  }

  /** The calls in order. Empty argument text becomes `{}` (a call with no arguments); nothing is parsed. */
  calls(): ToolCall[] {
    return this.slots
      .filter((slot) => this.isReal(slot))
      .map((slot) => {
        const call: ToolCall = {
          id: slot.id || `call_tern_${slot.position}`,
          name: slot.name,
          arguments: slot.arguments.trim() === "" ? "{}" : slot.arguments,
        };
        if (slot.extra) call.extra = slot.extra;
        return call;
      });
  }

  private start(slot: Slot): ToolCallEvent[] {
    slot.started = true;
    const events: ToolCallEvent[] = [
      { type: "tool_call_start", index: slot.position, id: slot.id, name: slot.name },
    ];
    if (slot.held) events.push({ type: "tool_call_delta", index: slot.position, argumentsDelta: slot.held });
    slot.held = "";
    return events;
  }

  /** A slot that only ever received metadata (no id, name or arguments) is not a call. */
  private isReal(slot: Slot): boolean {
    return Boolean(slot.id || slot.name || slot.arguments);
  }

  private slotFor(delta: ToolCallDelta): Slot {
    const index = typeof delta.index === "number" ? delta.index : undefined;
    if (delta.id) {
      const byId = this.byId.get(delta.id);
      // A model may reuse an id for a second call: a named start at another index is a new call.
      const reused =
        byId && delta.name && index !== undefined && byId.wireIndex !== undefined && byId.wireIndex !== index;
      if (byId && !reused) return byId;
    }
    if (index !== undefined) {
      const byIndex = this.byWireIndex.get(index);
      // Same index but a different id: a server reusing index 0 for every call. Open a new slot.
      if (byIndex && !this.startsAnother(byIndex, delta)) return byIndex;
      return this.open(index);
    }
    const last = this.slots[this.slots.length - 1];
    if (last && !this.startsAnother(last, delta)) return last;
    return this.open(undefined);
  }

  /** Gives a slot its id; lookups by id find the earliest slot holding it. */
  private name(slot: Slot, id: string): void {
    slot.id = id;
    const known = this.byId.get(id);
    if (!known || known.position > slot.position) this.byId.set(id, slot);
  }

  /**
   * A delta with another id than the slot's starts another call, unless it names no function: a
   * call's first delta always names it, and some servers (Poolside) send a fresh id on every
   * continuation of the same call.
   */
  private startsAnother(slot: Slot, delta: ToolCallDelta): boolean {
    if (!delta.id || !slot.id || slot.id === delta.id) return false;
    return Boolean(delta.name) || !slot.name;
  }

  private open(wireIndex: number | undefined): Slot {
    const slot: Slot = {
      position: this.slots.length,
      wireIndex,
      id: "",
      name: "",
      arguments: "",
      held: "",
      started: false,
      extra: undefined,
    };
    this.slots.push(slot);
    if (wireIndex !== undefined) this.byWireIndex.set(wireIndex, slot);
    return slot;
  }
}
