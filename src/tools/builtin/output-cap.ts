// Keeps the head and the tail of a long output and counts what was elided in between (characters
// and lines), in bounded memory however much a command prints. The cut falls on a line break when
// one is near, so neither kept part starts or ends mid-word.

/** How far from the cut a line break is looked for; past it the cut stays where it is. */
const ALIGN_WINDOW = 400;

function newlines(text: string): number {
  let n = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) n++;
  return n;
}

export class CappedOutput {
  private head = "";
  private tail = "";
  private total = 0;
  private lines = 0;

  constructor(private readonly maxChars: number) {}

  push(chunk: string): void {
    this.total += chunk.length;
    this.lines += newlines(chunk);
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
    let head = this.head;
    const headBreak = head.lastIndexOf("\n");
    if (headBreak >= 0 && head.length - headBreak <= ALIGN_WINDOW) head = head.slice(0, headBreak);
    let tail = this.tail.slice(-tailRoom);
    const tailBreak = tail.indexOf("\n");
    if (tailBreak >= 0 && tailBreak < ALIGN_WINDOW) tail = tail.slice(tailBreak + 1);
    const elided = this.total - head.length - tail.length;
    // Lines the middle held: the breaks not kept, less the one the marker's own break stands for.
    const lines = Math.max(1, this.lines - newlines(head) - newlines(tail) - 1);
    return `${head}\n… [${elided} characters elided; to see all of it, send the output to a file and read that with read_file offset/limit or grep; the elided part is ${lines} lines] …\n${tail}`;
  }
}
