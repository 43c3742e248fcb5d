// A record that cannot be read or a line the protocol does not admit. Messages name the file
// and line (R-REC-4) so a person can find and repair the damage.
export class RecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RecordError";
  }
}
