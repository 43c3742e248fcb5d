// Keeps the head and the tail of a long output and counts what was elided in between, in
// bounded memory however much a command prints.

export class CappedOutput {
  private head = "";
  private tail = "";
  private total = 0;

  constructor(private readonly maxChars: number) {}

  push(chunk: string): void {
    this.total += chunk.length;
    const half = Math.floor(this.maxChars / 2);
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk === "") return;
    this.tail += chunk;
    // Trim lazily so a stream of small chunks stays linear.
    if (this.tail.length > this.maxChars * 2) this.tail = this.tail.slice(-(this.maxChars - half));
  }

  text(): string {
    const half = Math.floor(this.maxChars / 2);
    const tailRoom = this.maxChars - half;
    if (this.total <= this.maxChars) return this.head + this.tail;
    const tail = this.tail.slice(-tailRoom);
    const elided = this.total - this.head.length - tail.length;
    return `${this.head}\n… [${elided} characters elided; to see all of it, send the output to a file and read that with read_file offset/limit or grep] …\n${tail}`;
  }
}
