// A small Headers for the openai SDK's own modules, swapped in at build time (patches/openai@6.49.0/
// import it as `#nanohermes-sdk-headers`): touching the global Headers loads undici (~10 MB, tens of ms) although the SDK's requests go
// through node:http (node-fetch.ts). Only the SDK sees it; the global stays as it is.

type Init = Iterable<readonly [string, string]> | Record<string, string | readonly string[]> | undefined;

/** The Headers methods the SDK and node-fetch.ts use: names lower-cased, repeated values joined with ", ". */
export class Headers implements Iterable<[string, string]> {
  private readonly map = new Map<string, string>();

  constructor(init?: Init) {
    if (!init) return;
    if (Symbol.iterator in init) for (const [k, v] of init as Iterable<readonly [string, string]>) this.append(k, v);
    else
      for (const [k, v] of Object.entries(init)) for (const one of typeof v === "string" ? [v] : v) this.append(k, one);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const had = this.map.get(key);
    this.map.set(key, had === undefined ? String(value) : `${had}, ${value}`);
  }

  set(name: string, value: string): void {
    this.map.set(name.toLowerCase(), String(value));
  }

  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  delete(name: string): void {
    this.map.delete(name.toLowerCase());
  }

  forEach(fn: (value: string, name: string, headers: Headers) => void): void {
    for (const [k, v] of this.map) fn(v, k, this);
  }

  entries(): IterableIterator<[string, string]> {
    return this.map.entries();
  }

  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  values(): IterableIterator<string> {
    return this.map.values();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.map.entries();
  }
}
