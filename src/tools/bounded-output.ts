// A byte buffer capped while it fills: keeps the first quarter and a rolling last three quarters,
// so a runaway command cannot exhaust memory and both the start and the final error survive.

export class BoundedOutput {
  private readonly headCap: number;
  private readonly tailCap: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(cap: number) {
    this.headCap = Math.floor(cap / 4);
    this.tailCap = cap - this.headCap;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headCap) {
      const take = Math.min(this.headCap - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    while (this.tailBytes > this.tailCap) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - this.tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  /** Bytes received in all, kept or not. */
  get totalBytes(): number {
    return this.total;
  }

  get dropped(): number {
    return this.total - this.headBytes - this.tailBytes;
  }

  text(): string {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (this.dropped === 0) return Buffer.concat([head, tail]).toString("utf8");
    const end = completeEnd(head);
    let start = 0;
    while (start < tail.length && (tail[start]! & 0xc0) === 0x80) start++;
    const cut = this.dropped + (head.length - end) + start;
    return `${head.subarray(0, end).toString("utf8")}\n[... ${cut} bytes of output dropped while reading ...]\n${tail.subarray(start).toString("utf8")}`;
  }
}

/** Length of the longest prefix of `buf` that does not end inside a UTF-8 sequence. */
export function completeEnd(buf: Buffer): number {
  for (let back = 1; back <= Math.min(4, buf.length); back++) {
    const b = buf[buf.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? buf.length - back : buf.length;
  }
  return buf.length;
}
