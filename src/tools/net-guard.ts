// Address classification for the web tools' SSRF guard: which hosts and IPs are not the public
// internet (loopback, private, link-local, metadata ...). Pure string functions, table-tested.

/** What an address is; everything but "public" is refused unless the user allows private ones. */
export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "carrier-grade NAT"
  | "unspecified"
  | "multicast"
  | "reserved"
  /** Cloud instance metadata: hands out credentials, so refused even when private ones are allowed. */
  | "cloud metadata";

/**
 * Parses IPv4 the way inet_aton and the WHATWG URL parser do: 1-4 parts, each decimal, octal
 * (leading 0) or hex (0x), the last part filling the remaining bytes ("127.1", "2130706433",
 * "0x7f.0.0.1", "0177.0.0.1"). Resolvers accept these forms too, so the guard must as well.
 */
export function parseIPv4(text: string): [number, number, number, number] | null {
  const parts = (text.endsWith(".") ? text.slice(0, -1) : text).split(".");
  if (parts.length < 1 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part, 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255)) return null;
  const room = 4 - values.length;
  if (last >= 256 ** room) return null;
  const bytes = [...values];
  for (let i = room - 1; i >= 0; i--) bytes.push(Math.floor(last / 256 ** i) % 256);
  return bytes as [number, number, number, number];
}

/** Parses IPv6 (brackets and a %zone allowed) into eight 16-bit groups; a dotted IPv4 tail is folded in. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  s = s.replace(/%.*$/, "");
  if (!s.includes(":")) return null;
  // A dotted IPv4 tail ("::ffff:127.0.0.1") becomes its two hex groups.
  const v4 = /:(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const octets = v4[1]!.split(".");
    if (octets.some((o) => Number(o) > 255 || (o.length > 1 && o.startsWith("0")))) return null;
    const [a, b, c, d] = octets.map(Number) as [number, number, number, number];
    s = `${s.slice(0, v4.index + 1)}${(a * 256 + b).toString(16)}:${(c * 256 + d).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const group = (h: string) => (h === "" ? [] : h.split(":"));
  const head = group(halves[0]!);
  const rest = halves.length === 2 ? group(halves[1]!) : [];
  const parse = (g: string) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN);
  const nums = [...head.map(parse), ...rest.map(parse)];
  if (nums.some(Number.isNaN)) return null;
  if (halves.length === 2 ? nums.length > 7 : nums.length !== 8) return null;
  const zeros = new Array<number>(8 - nums.length).fill(0);
  return [...head.map(parse), ...zeros, ...rest.map(parse)];
}

type V4Rule = [a: number, b: number, c: number, d: number, prefix: number, cls: AddressClass];

// First match wins: the metadata hosts sit inside wider ranges, so they come first.
const V4_RULES: V4Rule[] = [
  [169, 254, 169, 254, 32, "cloud metadata"], // AWS, GCP, Azure, OpenStack ...
  [168, 63, 129, 16, 32, "cloud metadata"], // Azure WireServer (a public address)
  [100, 100, 100, 200, 32, "cloud metadata"], // Alibaba Cloud
  [0, 0, 0, 0, 8, "unspecified"],
  [127, 0, 0, 0, 8, "loopback"],
  [10, 0, 0, 0, 8, "private"],
  [172, 16, 0, 0, 12, "private"],
  [192, 168, 0, 0, 16, "private"],
  [169, 254, 0, 0, 16, "link-local"],
  [100, 64, 0, 0, 10, "carrier-grade NAT"],
  [224, 0, 0, 0, 4, "multicast"],
  [240, 0, 0, 0, 4, "reserved"], // includes 255.255.255.255
  [192, 0, 0, 0, 24, "reserved"], // IETF protocol assignments
  [192, 0, 2, 0, 24, "reserved"], // documentation
  [198, 18, 0, 0, 15, "reserved"], // benchmarking
  [198, 51, 100, 0, 24, "reserved"],
  [203, 0, 113, 0, 24, "reserved"],
];

function v4Number(b: readonly number[]): number {
  return ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
}

function classifyV4(bytes: readonly number[]): AddressClass {
  const n = v4Number(bytes);
  for (const [a, b, c, d, prefix, cls] of V4_RULES) {
    const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
    if ((n & mask) >>> 0 === (v4Number([a, b, c, d]) & mask) >>> 0) return cls;
  }
  return "public";
}

function classifyV6(g: number[]): AddressClass {
  const embedded = (hi: number, lo: number) => classifyV4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (g[0] === 0xfd00 && g[1] === 0xec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254)
    return "cloud metadata";
  if (zeroUpTo(8)) return "unspecified";
  if (zeroUpTo(7) && g[7] === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) and the old IPv4-compatible form (::a.b.c.d) reach IPv4 hosts.
  if (zeroUpTo(5) && (g[5] === 0xffff || g[5] === 0)) return embedded(g[6]!, g[7]!);
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address that a gateway may reach.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return embedded(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "private";
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!);
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return "private"; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfec0) return "private"; // fec0::/10 site-local (deprecated)
  if ((first & 0xffc0) === 0xfe80) return "link-local";
  if ((first & 0xff00) === 0xff00) return "multicast";
  if (first === 0x100 && g.slice(1, 4).every((x) => x === 0)) return "reserved"; // discard prefix
  if (first === 0x2001 && g[1] === 0xdb8) return "reserved"; // documentation
  return "public";
}

/** The class of an IP literal (any form above), or null when `text` is not an IP address. */
export function classifyAddress(text: string): AddressClass | null {
  const v6 = parseIPv6(text);
  if (v6) return classifyV6(v6);
  const v4 = parseIPv4(text);
  return v4 ? classifyV4(v4) : null;
}

/** Names that reach metadata services or this machine whatever DNS says. */
const METADATA_NAMES = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
]);

/**
 * The class of a URL's hostname when it can be known before DNS (an IP literal, localhost, a
 * metadata name), else null: the resolved addresses are then checked with classifyAddress.
 */
export function classifyHost(hostname: string): AddressClass | null {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (METADATA_NAMES.has(host)) return "cloud metadata";
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  return classifyAddress(host);
}
