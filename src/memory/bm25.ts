// Okapi BM25 over pre-tokenized documents: the ranking behind memory retrieval. Pure; an inverted
// index so a query touches only the documents that share a term with it.

export interface Bm25Options {
  /** Term-frequency saturation. Default 1.2 (the seed's value). */
  k1?: number;
  /** Length normalisation, 0 (none) to 1 (full). Default 0.75 (the seed's value). */
  b?: number;
}

/** Above this k, top-k selection sorts the matches instead of inserting into a short list. */
const INSERTION_MAX = 32;

/** One term's documents: positions into the document list, and the term's count in each. */
interface Postings {
  docs: number[];
  freqs: number[];
}

/**
 * Contract: built once from a fixed document list, then searched any number of times; never
 * mutated. Scores follow the seed exactly:
 *   idf = ln(1 + (N - n + 0.5) / (n + 0.5))
 *   score += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * len / max(avgLen, 1)))
 * summed over the query's distinct terms. The idf is always positive, so a document scores above
 * zero exactly when it shares a term with the query; the rest never appear in results.
 */
export class Bm25Index<T extends string = string> {
  private readonly ids: T[];
  private readonly postings = new Map<string, Postings>();
  /** Per document: k1 * (1 - b + b * len / max(avgLen, 1)), the length part of the denominator. */
  private readonly lengthNorm: Float64Array;
  private readonly k1: number;
  /** Reused between searches (single-threaded): avoids a 10,000-slot allocation per query. */
  private readonly scores: Float64Array;

  constructor(docs: readonly { id: T; tokens: readonly string[] }[], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    const b = options.b ?? 0.75;
    this.ids = docs.map((d) => d.id);
    let totalLength = 0;
    docs.forEach((doc, index) => {
      totalLength += doc.tokens.length;
      const counts = new Map<string, number>();
      for (const token of doc.tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
      for (const [term, count] of counts) {
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = { docs: [], freqs: [] }));
        list.docs.push(index);
        list.freqs.push(count);
      }
    });
    const avgLength = Math.max(docs.length === 0 ? 0 : totalLength / docs.length, 1);
    this.lengthNorm = Float64Array.from(docs, (doc) => this.k1 * (1 - b + (b * doc.tokens.length) / avgLength));
    this.scores = new Float64Array(docs.length);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The inverse document frequency of a term that `n` of the documents contain. */
  idf(n: number): number {
    const total = this.ids.length;
    return Math.log(1 + (total - n + 0.5) / (n + 0.5));
  }

  /**
   * The best `k` documents, highest score first; equal scores keep document order. A repeated
   * query term counts once; documents sharing no term with the query are left out.
   */
  search(queryTokens: readonly string[], k: number): { id: T; score: number }[] {
    if (k <= 0 || this.ids.length === 0) return [];
    const scores = this.scores;
    for (const term of new Set(queryTokens)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = this.idf(list.docs.length);
      for (let i = 0; i < list.docs.length; i++) {
        const doc = list.docs[i]!;
        const f = list.freqs[i]!;
        scores[doc]! += (idf * f * (this.k1 + 1)) / (f + this.lengthNorm[doc]!);
      }
    }
    const top = k > INSERTION_MAX ? this.sortedTop(k) : this.insertionTop(k);
    const results = top.map((doc) => ({ id: this.ids[doc]!, score: scores[doc]! }));
    scores.fill(0);
    return results;
  }

  /**
   * Top-k by insertion, for small k: documents are visited in order, so a strict comparison
   * keeps the earlier one ahead on ties. A pass over every slot costs microseconds at 10,000.
   */
  private insertionTop(k: number): number[] {
    const scores = this.scores;
    const top: number[] = [];
    for (let doc = 0; doc < scores.length; doc++) {
      const score = scores[doc]!;
      if (score <= 0 || (top.length === k && score <= scores[top[k - 1]!]!)) continue;
      let at = top.length;
      while (at > 0 && score > scores[top[at - 1]!]!) at--;
      top.splice(at, 0, doc);
      if (top.length > k) top.pop();
    }
    return top;
  }

  private sortedTop(k: number): number[] {
    const scores = this.scores;
    const matched: number[] = [];
    for (let doc = 0; doc < scores.length; doc++) if (scores[doc]! > 0) matched.push(doc);
    matched.sort((x, y) => scores[y]! - scores[x]! || x - y);
    return matched.slice(0, k);
  }
}
