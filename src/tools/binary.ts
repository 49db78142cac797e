// Recognising files that are not text, so tools refuse them with a useful name for what they are.
const signatures: [string, number[]][] = [
  ["PNG image", [0x89, 0x50, 0x4e, 0x47]],
  ["JPEG image", [0xff, 0xd8, 0xff]],
  ["GIF image", [0x47, 0x49, 0x46, 0x38]],
  ["PDF document", [0x25, 0x50, 0x44, 0x46]],
  ["ZIP archive", [0x50, 0x4b, 0x03, 0x04]],
  ["gzip archive", [0x1f, 0x8b]],
  ["ELF executable", [0x7f, 0x45, 0x4c, 0x46]],
  ["WebAssembly module", [0x00, 0x61, 0x73, 0x6d]],
  ["SQLite database", [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65]],
];

/** What a binary buffer looks like ("PNG image"), or null when it looks like text. */
export function binaryKind(sample: Uint8Array): string | null {
  for (const [name, magic] of signatures) {
    if (magic.every((b, i) => sample[i] === b)) return name;
  }
  const n = Math.min(sample.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = sample[i]!;
    if (b === 0) return "binary data";
    if (b < 7 || (b > 13 && b < 32 && b !== 27)) control++;
  }
  return n > 0 && control / n > 0.1 ? "binary data" : null;
}
