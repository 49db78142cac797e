// The SSRF guard's address classification, as tables: every refused class, odd IPv4 spellings,
// IPv6 forms that carry an IPv4 address, and public addresses that must stay reachable.
import { describe, expect, it } from "vitest";
import { classifyAddress, classifyHost, parseIPv4, parseIPv6, type AddressClass } from "../../src/tools/net-guard.js";

describe("classifyHost", () => {
  const refused: [string, AddressClass][] = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["localhost", "loopback"],
    ["LocalHost.", "loopback"],
    ["api.localhost", "loopback"],
    ["2130706433", "loopback"], // decimal
    ["0x7f000001", "loopback"], // hex
    ["0177.0.0.1", "loopback"], // octal
    ["0x7f.0.0.1", "loopback"],
    ["127.1", "loopback"], // short form
    ["127.0.0.1.", "loopback"], // trailing dot
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"], // IPv4-mapped
    ["::ffff:7f00:1", "loopback"],
    ["::127.0.0.1", "loopback"], // IPv4-compatible
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["3232235777", "private"], // 192.168.1.1 as one number
    ["::ffff:10.1.2.3", "private"],
    ["fc00::1", "private"],
    ["fd12:3456:789a::1", "private"],
    ["2002:c0a8:101::1", "private"], // 6to4 around 192.168.1.1
    ["64:ff9b::a00:1", "private"], // NAT64 around 10.0.0.1
    ["169.254.1.1", "link-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["0", "unspecified"],
    ["::", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.10", "reserved"],
    ["2001:db8::1", "reserved"],
    ["169.254.169.254", "cloud metadata"],
    ["0xa9fea9fe", "cloud metadata"], // 169.254.169.254 in hex
    ["::ffff:169.254.169.254", "cloud metadata"],
    ["fd00:ec2::254", "cloud metadata"],
    ["[fd00:ec2::254]", "cloud metadata"],
    ["metadata.google.internal", "cloud metadata"],
    ["METADATA.GOOGLE.INTERNAL.", "cloud metadata"],
    ["100.100.100.200", "cloud metadata"],
    ["168.63.129.16", "cloud metadata"],
  ];
  it.each(refused)("%s is %s", (host, cls) => {
    expect(classifyHost(host)).toBe(cls);
  });

  const publicHosts = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "100.63.255.255",
    "100.128.0.1",
    "172.15.255.255",
    "172.32.0.1",
    "192.167.1.1",
    "169.253.1.1",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
  ];
  it.each(publicHosts)("%s is public", (host) => {
    expect(classifyHost(host)).toBe("public");
  });

  it("leaves names to DNS and rejects malformed literals as names", () => {
    for (const host of [
      "example.com",
      "localhost.example.com",
      "metadata.example",
      "1.2.3.256",
      "256.1",
      "09.1.1.1",
      "1e3",
      "fec0::1x",
      "1::2::3",
      "1:2:3:4:5:6:7:8:9",
      "::ffff:1.2.3.04",
    ]) {
      expect(classifyHost(host), host).toBeNull();
    }
  });
});

describe("parsers", () => {
  it.each([
    ["127.1", [127, 0, 0, 1]],
    ["10.258", [10, 0, 1, 2]],
    ["192.168.257", [192, 168, 1, 1]],
    ["0x0a.0x00.0x00.0x01", [10, 0, 0, 1]],
    ["4294967295", [255, 255, 255, 255]],
  ])("parseIPv4(%s)", (text, bytes) => {
    expect(parseIPv4(text)).toEqual(bytes);
  });

  it("refuses IPv4 parts out of range", () => {
    expect(parseIPv4("4294967296")).toBeNull();
    expect(parseIPv4("1.2.3.4.5")).toBeNull();
    expect(parseIPv4("1.2.65536")).toBeNull();
  });

  it("expands IPv6 and folds a dotted tail", () => {
    expect(parseIPv6("2001:db8::8:800:200c:417a")).toEqual([0x2001, 0xdb8, 0, 0, 0x8, 0x800, 0x200c, 0x417a]);
    expect(parseIPv6("::ffff:192.0.2.128")).toEqual([0, 0, 0, 0, 0, 0xffff, 0xc000, 0x280]);
    expect(parseIPv6("1::")).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6("1.2.3.4")).toBeNull();
  });

  it("classifies the addresses DNS returns", () => {
    expect(classifyAddress("10.0.0.5")).toBe("private");
    expect(classifyAddress("2606:4700::6810:84e5")).toBe("public");
    expect(classifyAddress("example.com")).toBeNull();
  });
});
