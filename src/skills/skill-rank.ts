// Ranking skills against text with the memory's BM25: the near-duplicate check before a create
// (either writer) and the per-prompt "relevant skills" hint. Pure.
import { Bm25Index } from "../memory/bm25.js";
import { tokenize } from "../memory/tokenize.js";

export interface SkillDoc {
  name: string;
  description: string;
  /** The instructions (may be ""): the hint ranks on name and description only. */
  body: string;
}

/** A new skill this similar (0..1, see `closestSkill`) to an existing one is a duplicate. */
export const DUPLICATE_THRESHOLD = 0.5;

/** A name's words ("git-rebase_flow" -> "git rebase flow"). */
const words = (name: string) => name.replace(/[-_.]+/g, " ");

/** Name and description count twice: they say what a skill is for; the body says how. */
function tokensOf(doc: SkillDoc): string[] {
  const head = `${words(doc.name)} ${doc.description}`;
  return [...tokenize(head), ...tokenize(head), ...tokenize(doc.body)];
}

/**
 * The existing skill most like `candidate`, with its similarity: its BM25 score for the candidate's
 * text over the candidate's own score for it (the best any document can do), in one index of both.
 * Null when nothing shares a word with it.
 */
export function closestSkill(
  candidate: SkillDoc,
  existing: readonly SkillDoc[],
): { name: string; similarity: number } | null {
  const others = existing.filter((d) => d.name !== candidate.name);
  if (others.length === 0) return null;
  const self = "\0candidate";
  const docs = [...others.map((d) => ({ id: d.name, tokens: tokensOf(d) })), { id: self, tokens: tokensOf(candidate) }];
  const index = new Bm25Index(docs);
  const query = tokensOf(candidate);
  const hits = index.search(query, docs.length);
  const own = hits.find((h) => h.id === self)?.score ?? 0;
  const best = hits.find((h) => h.id !== self);
  if (!best || own <= 0) return null;
  return { name: best.id, similarity: Math.min(1, best.score / own) };
}

/**
 * Skills whose name or description match `prompt`, best first, at most `k`: a skill needs at least
 * two of the prompt's words, or one rare word that is part of its name, so common words alone
 * ("the file") never make a hint.
 */
export function relevantSkills(prompt: string, skills: readonly Omit<SkillDoc, "body">[], k = 3): string[] {
  if (skills.length === 0) return [];
  const query = [...new Set(tokenize(prompt))];
  if (query.length === 0) return [];
  const docs = skills.map((s) => ({ id: s.name, tokens: tokenize(`${words(s.name)} ${s.description}`) }));
  const index = new Bm25Index(docs);
  const hits = index.search(query, k * 4);
  const querySet = new Set(query);
  return hits
    .filter((hit) => {
      const doc = docs.find((d) => d.id === hit.id)!;
      const shared = new Set(doc.tokens.filter((t) => querySet.has(t)));
      const nameWords = new Set(tokenize(words(hit.id)));
      return shared.size >= 2 || [...shared].some((t) => nameWords.has(t) && t.length >= 4);
    })
    .slice(0, k)
    .map((hit) => hit.id);
}
