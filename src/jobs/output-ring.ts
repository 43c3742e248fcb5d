// A job's output in bounded memory: the newest `capacity` characters, addressed by absolute
// offsets, so a reader that fell behind a flood learns how much it missed instead of tern
// holding it all (the full log is on disk, job.ts).

export class OutputRing {
  private chunks: string[] = [];
  /** Absolute offset of chunks[0]'s first character. */
  private start = 0;
  private held = 0;

  constructor(private readonly capacity: number) {}

  /** Offset just past the newest character. */
  get end(): number {
    return this.start + this.held;
  }

  push(text: string): void {
    if (text === "") return;
    this.chunks.push(text);
    this.held += text.length;
    while (this.held > this.capacity && this.chunks.length > 0) {
      const over = this.held - this.capacity;
      const first = this.chunks[0];
      if (first.length <= over) {
        this.chunks.shift();
        this.start += first.length;
        this.held -= first.length;
      } else {
        this.chunks[0] = first.slice(over);
        this.start += over;
        this.held -= over;
      }
    }
  }

  /** What is held from `offset` on, and how many characters before it were already dropped. */
  since(offset: number): { text: string; dropped: number } {
    const from = Math.max(offset, this.start);
    let skip = from - this.start;
    const parts: string[] = [];
    for (const chunk of this.chunks) {
      if (skip >= chunk.length) {
        skip -= chunk.length;
        continue;
      }
      parts.push(skip > 0 ? chunk.slice(skip) : chunk);
      skip = 0;
    }
    return { text: parts.join(""), dropped: from - offset };
  }

  /** The last `n` lines held (for `/jobs`). */
  lastLines(n: number): string[] {
    const tail = this.since(Math.max(this.start, this.end - 4096)).text.replace(/\n$/, "");
    return tail === "" ? [] : tail.split("\n").slice(-n);
  }
}
