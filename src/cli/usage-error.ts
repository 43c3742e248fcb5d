/** A user mistake caught before any turn ran: one line on stderr, exit code 2, no stack trace. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
