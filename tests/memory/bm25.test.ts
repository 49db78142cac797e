// BM25 on small corpora with the scores worked out by hand, ties, zero scores, and a check of
// the top-k selection against a brute-force reference.
import { describe, expect, it } from "vitest";
import { Bm25Index } from "../../src/memory/bm25.js";

// Lengths 3, 2, 1: the average length is 2.
const corpus = [
  { id: "d1", tokens: ["cat", "cat", "dog"] },
  { id: "d2", tokens: ["dog", "bird"] },
  { id: "d3", tokens: ["fish"] },
];

// By hand, k1 = 1.2, b = 0.75, N = 3:
//   idf(cat)  = ln(1 + (3 - 1 + 0.5) / 1.5) = ln(8/3) = 0.980829
//   idf(dog)  = ln(1 + (3 - 2 + 0.5) / 2.5) = ln(1.6) = 0.470004
//   length parts: d1 1.2 * (0.25 + 0.75 * 3/2) = 1.65; d2 1.2 * (0.25 + 0.75 * 2/2) = 1.2
//   d1 for cat (f = 2): 0.980829 * 2 * 2.2 / (2 + 1.65) = 1.182369
//   d1 for dog (f = 1): 0.470004 * 2.2 / 2.65 = 0.390192
//   d2 for dog (f = 1): 0.470004 * 2.2 / 2.2 = 0.470004
describe("Bm25Index", () => {
  const index = new Bm25Index(corpus);

  it("scores one term by the formula", () => {
    const hits = index.search(["cat"], 5);
    expect(hits.map((h) => h.id)).toEqual(["d1"]);
    expect(hits[0]!.score).toBeCloseTo(1.182369, 5);
  });

  it("ranks a shorter document higher for the same term frequency", () => {
    const hits = index.search(["dog"], 5);
    expect(hits.map((h) => h.id)).toEqual(["d2", "d1"]);
    expect(hits[0]!.score).toBeCloseTo(0.470004, 5);
    expect(hits[1]!.score).toBeCloseTo(0.390192, 5);
  });

  it("sums terms, counts a repeated query term once, and drops documents that share nothing", () => {
    const hits = index.search(["cat", "dog", "dog", "cat"], 5);
    expect(hits.map((h) => h.id)).toEqual(["d1", "d2"]);
    expect(hits[0]!.score).toBeCloseTo(1.182369 + 0.390192, 5);
    expect(hits[1]!.score).toBeCloseTo(0.470004, 5);
    expect(index.search(["zebra"], 5)).toEqual([]);
    expect(index.search([], 5)).toEqual([]);
  });

  it("returns at most k, best first", () => {
    expect(index.search(["cat", "dog"], 1).map((h) => h.id)).toEqual(["d1"]);
    expect(index.search(["cat", "dog"], 0)).toEqual([]);
  });

  it("computes idf on a two-document corpus as worked by hand", () => {
    const two = new Bm25Index([
      { id: "x", tokens: ["alpha", "shared"] },
      { id: "y", tokens: ["beta", "shared"] },
    ]);
    // In one of two: ln(1 + 1.5 / 1.5) = ln 2. In both: ln(1 + 0.5 / 2.5) = ln 1.2.
    expect(two.idf(1)).toBeCloseTo(Math.LN2, 10);
    expect(two.idf(2)).toBeCloseTo(Math.log(1.2), 10);
    // Equal lengths, f = 1: the length part is k1, so the score is the idf itself.
    expect(two.search(["alpha"], 5)).toEqual([{ id: "x", score: expect.closeTo(Math.LN2, 10) }]);
    // Equal scores keep document order.
    expect(two.search(["shared"], 5).map((h) => h.id)).toEqual(["x", "y"]);
  });

  it("keeps document order on ties, for any k", () => {
    const same = new Bm25Index(["a", "b", "c", "d"].map((id) => ({ id, tokens: ["same", "word"] })));
    expect(same.search(["same"], 2).map((h) => h.id)).toEqual(["a", "b"]);
    expect(same.search(["same"], 100).map((h) => h.id)).toEqual(["a", "b", "c", "d"]);
  });

  it("takes k1 and b as options (b = 0 ignores length)", () => {
    const flat = new Bm25Index(corpus, { b: 0 });
    const hits = flat.search(["dog"], 5);
    expect(hits[0]!.score).toBeCloseTo(hits[1]!.score, 10);
    expect(hits.map((h) => h.id)).toEqual(["d1", "d2"]);
    const k1 = new Bm25Index(corpus, { k1: 2, b: 0 });
    // f = 2, k1 = 2: idf * 2 * 3 / (2 + 2)
    expect(k1.search(["cat"], 1)[0]!.score).toBeCloseTo(0.980829 * 1.5, 5);
  });

  it("treats an average length under 1 as 1, and an empty corpus as no results", () => {
    const sparse = new Bm25Index([
      { id: "e", tokens: [] },
      { id: "f", tokens: [] },
      { id: "g", tokens: ["x"] },
    ]);
    // avg = 1/3 -> 1; len 1: the length part is k1; ln(1 + 2.5 / 1.5)
    expect(sparse.search(["x"], 5)).toEqual([{ id: "g", score: expect.closeTo(Math.log(1 + 2.5 / 1.5), 10) }]);
    expect(new Bm25Index([]).search(["x"], 5)).toEqual([]);
  });

  it("agrees with a brute-force reference on a random corpus, small and large k", () => {
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const vocab = Array.from({ length: 30 }, (_, i) => `w${i}`);
    const docs = Array.from({ length: 300 }, (_, i) => ({
      id: `d${i}`,
      tokens: Array.from({ length: 1 + Math.floor(next() * 12) }, () => vocab[Math.floor(next() * 30)]!),
    }));
    const index = new Bm25Index(docs);
    const avg = docs.reduce((s, d) => s + d.tokens.length, 0) / docs.length;
    const reference = (query: string[]) =>
      docs
        .map((d, i) => {
          let score = 0;
          for (const term of new Set(query)) {
            const n = docs.filter((x) => x.tokens.includes(term)).length;
            const f = d.tokens.filter((t) => t === term).length;
            if (f === 0) continue;
            const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
            score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.tokens.length) / Math.max(avg, 1)));
          }
          return { id: d.id, score, i };
        })
        .filter((r) => r.score > 0)
        .sort((a, b) => b.score - a.score || a.i - b.i)
        .map(({ id, score }) => ({ id, score }));
    for (let q = 0; q < 20; q++) {
      const query = Array.from({ length: 1 + (q % 4) }, () => vocab[Math.floor(next() * 30)]!);
      const want = reference(query);
      for (const k of [1, 5, 32, 33, 500]) {
        const got = index.search(query, k);
        expect(got.map((h) => h.id)).toEqual(want.slice(0, k).map((h) => h.id));
        got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]!.score, 9));
      }
    }
  });
});
