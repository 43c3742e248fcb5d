// R-MCP-3 in the UI: an MCP server's form (the engine's `elicit` request) as the composer answers
// it, one question at a time in the live region: first accept / decline / cancel, then each field
// (`fieldQuestion`), asked again until what is typed fits it (`fieldValue`). Ctrl+C, an exit, or
// the server giving up cancels. Forms from several servers at once are asked one after another.
import type { ElicitAnswer, ElicitForm, ElicitValue } from "../vocab/elicit-form.js";
import { fieldQuestion, fieldValue } from "../vocab/elicit-form.js";
import { stripControlSequences } from "../workspace/terminal-text.js";
import type { Store } from "./store.js";

export const ELICIT_CHOICES = "Answer it? [a]ccept / [d]ecline / [c]ancel";

interface Open {
  form: ElicitForm;
  /** -1 while the accept / decline / cancel choice is asked, else the field being asked. */
  step: number;
  content: Record<string, ElicitValue>;
  resolve: (answer: ElicitAnswer) => void;
}

export class ElicitFlow {
  private open: Open | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly print: (text: string) => void,
  ) {}

  ask(form: ElicitForm, signal: AbortSignal): Promise<ElicitAnswer> {
    const asked = this.queue.then(() => this.one(form, signal));
    this.queue = asked.catch(() => undefined);
    return asked;
  }

  private one(form: ElicitForm, signal: AbortSignal): Promise<ElicitAnswer> {
    if (signal.aborted) return Promise.resolve({ action: "cancel" });
    return new Promise((resolve) => {
      const onAbort = () => this.finish({ action: "cancel" });
      signal.addEventListener("abort", onAbort, { once: true });
      this.open = {
        form,
        step: -1,
        content: {},
        resolve: (answer) => {
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
        },
      };
      this.print(`MCP server '${form.server}' asks: ${stripControlSequences(form.message)}`);
      this.show(ELICIT_CHOICES);
    });
  }

  /** Enter in the composer: true when the text answered a question of an open form (the composer is then emptied). */
  takeTyped(text: string, composer: { set(value: { text: string; cursor: number }): void }): boolean {
    const open = this.open;
    if (!open) return false;
    composer.set({ text: "", cursor: 0 });
    if (open.step === -1) {
      const choice = text.trim().toLowerCase();
      if (choice.startsWith("d")) return this.finish({ action: "decline" });
      if (!choice.startsWith("a")) return this.finish({ action: "cancel" });
      return this.next(open);
    }
    const field = open.form.fields[open.step];
    const check = fieldValue(field, text);
    if (!check.ok) {
      this.show(`${check.error} · ${fieldQuestion(field)}`);
      return true;
    }
    if (check.value !== undefined) open.content[field.name] = check.value;
    return this.next(open);
  }

  /** Ctrl+C or an exit: the open form is cancelled. True when one was open. */
  cancel(): boolean {
    return this.open ? this.finish({ action: "cancel" }) : false;
  }

  private next(open: Open): boolean {
    open.step += 1;
    if (open.step >= open.form.fields.length) return this.finish({ action: "accept", content: open.content });
    this.show(stripControlSequences(fieldQuestion(open.form.fields[open.step])));
    return true;
  }

  private show(question: string): void {
    this.store.dispatch({ type: "question", text: question });
  }

  private finish(answer: ElicitAnswer): boolean {
    const open = this.open;
    if (!open) return false;
    this.open = undefined;
    this.store.dispatch({ type: "question", text: null });
    const said =
      answer.action === "accept" ? "accepted" : answer.action === "decline" ? "declined" : "cancelled";
    this.print(`${said} MCP server '${open.form.server}''s request`);
    open.resolve(answer);
    return true;
  }
}
