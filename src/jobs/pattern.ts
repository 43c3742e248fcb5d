// `job_output`'s `wait_for`: a JavaScript regex run with a time bound, like grep's (R-TOOL-6):
// a pattern that backtracks without end is stopped and reported, never left to hang tern. The
// match runs in a vm context because V8 interrupts a regex only through a script timeout.
import { createContext, Script } from "node:vm";

/** One test may take this long… */
const TEST_MS = 200;
/** …and all the tests of one wait this long together. */
const WAIT_BUDGET_MS = 1000;

export class PatternError extends Error {}

const runTest = new Script("re.test(text)");

export class BoundedPattern {
  private readonly sandbox: { re: RegExp; text: string };
  private readonly context: object;
  private spentMs = 0;

  /** Throws PatternError for a pattern that is not a valid regex. */
  constructor(readonly source: string) {
    let re: RegExp;
    try {
      re = new RegExp(source, "m");
    } catch (err) {
      throw new PatternError(
        `invalid regex ${JSON.stringify(source.slice(0, 200))}: ${(err as Error).message}`,
      );
    }
    this.sandbox = { re, text: "" };
    this.context = createContext(this.sandbox);
  }

  /** Whether `text` matches; throws PatternError when the regex runs too long. */
  test(text: string): boolean {
    if (this.spentMs > WAIT_BUDGET_MS) throw this.tooSlow();
    this.sandbox.text = text;
    const began = performance.now();
    try {
      return runTest.runInContext(this.context, { timeout: TEST_MS }) === true;
    } catch {
      throw this.tooSlow();
    } finally {
      this.spentMs += performance.now() - began;
      this.sandbox.text = "";
    }
  }

  private tooSlow(): PatternError {
    return new PatternError(
      `wait_for regex ${JSON.stringify(this.source.slice(0, 200))} ran too long (a pattern that backtracks ` +
        "without end); simplify it",
    );
  }
}
