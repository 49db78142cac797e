// A small bash lexer for the safety checks: words with quotes removed, operators, redirections,
// here-documents and the commands nested in $(...), `...` and <(...). It never expands anything;
// it only has to see a command the way bash will split it, so a check cannot be fooled by quoting.

/** One shell word. */
export interface Word {
  /** The word after quote removal; substitutions such as `$HOME` or `$(x)` stay as written. */
  text: string;
  /** The word as typed. */
  raw: string;
  /** Some character was quoted or escaped (so `"A=1"` is not an assignment). */
  quoted: boolean;
  /** An unquoted glob (`* ? [`), brace (`{ }`) or leading tilde: bash would rewrite this word. */
  expands: boolean;
  /** Holds a `$` or backtick substitution whose value nobody can know before it runs. */
  dynamic: boolean;
}

export interface Redirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`, `<<`, `<<<`, `>&`, `<&` ... */
  op: string;
  /** The descriptor written before the operator (`2` in `2>x`), when one was. */
  fd?: string;
  target: Word | undefined;
}

/** A simple command: what runs between two operators. */
export interface SimpleCommand {
  raw: string;
  /** Where `raw` starts and ends in the parsed text. */
  start: number;
  end: number;
  words: Word[];
  redirects: Redirect[];
  /** Text the command reads on stdin from here-documents and here-strings. */
  stdin: string[];
}

export interface Pipeline {
  raw: string;
  commands: SimpleCommand[];
}

export interface Parsed {
  pipelines: Pipeline[];
  /** Commands nested in substitutions; the caller parses them in turn. */
  nested: string[];
  /** False when a quote or substitution is left open (bash would refuse or wait for more). */
  complete: boolean;
  /** Words with quotes and escapes removed and operators, joined by single spaces. */
  normalised: string;
  /** The control and pipe operators used (`&&`, `;`, `|`, `&`, `(`...), redirections excluded. */
  operators: string[];
  /** A reserved word (`if`, `while`, `{`...) opened a command: a compound the checks do not model. */
  reserved: boolean;
}

type Token =
  | { kind: "word"; word: Word; start: number; end: number }
  | { kind: "op"; op: string; start: number; end: number }
  | { kind: "heredoc"; body: string; start: number; end: number };

const BLANK = new Set([" ", "\t"]);
const OPERATOR_START = new Set(["|", "&", ";", "<", ">", "(", ")", "\n"]);
const OPERATORS = [
  ";;&",
  "<<<",
  "<<-",
  "&>>",
  "&&",
  "||",
  "|&",
  ";;",
  ";&",
  "<<",
  ">>",
  ">|",
  "<>",
  "<&",
  ">&",
  "&>",
  "|",
  "&",
  ";",
  "<",
  ">",
  "(",
  ")",
  "\n",
];
const SEPARATORS = new Set([";", "&", "&&", "||", "\n", ";;", ";&", ";;&", "(", ")"]);
/** Reserved words that may open a command without being its program. */
const PREFIX_WORDS = new Set(["{", "}", "!", "if", "then", "else", "elif", "fi", "do", "done", "while", "until"]);

/**
 * Index just past the `)` closing a `(` at `open`, honouring quotes and comments (bash reads the
 * inside of `$(...)` as commands, so `# it's` is a comment and its quote opens nothing); -1 if it
 * never closes.
 */
function closeParen(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const ch = s[i];
    if (ch === "\\") i++;
    else if (ch === "#" && i > open && /[\s;&|()]/.test(s[i - 1]!)) {
      i = s.indexOf("\n", i);
      if (i < 0) return -1;
    } else if (ch === "`") {
      i = closeBacktick(s, i) - 1;
      if (i < 0) return -1;
    } else if (ch === "'") {
      i = s.indexOf("'", i + 1);
      if (i < 0) return -1;
    } else if (ch === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === "\\") i++;
      if (i >= s.length) return -1;
    } else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i + 1;
  }
  return -1;
}

function closeBacktick(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === "`") return i + 1;
  }
  return -1;
}

const ANSI_C: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Decodes the body of `$'...'` starting after the quote; returns the text and the index past the closing quote. */
function ansiC(s: string, i: number): { text: string; end: number } {
  let text = "";
  while (i < s.length && s[i] !== "'") {
    if (s[i] !== "\\") {
      text += s[i++];
      continue;
    }
    const next = s[i + 1] ?? "";
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(s.slice(i + 1, i + 4));
    const oct = /^[0-7]{1,3}/.exec(s.slice(i + 1, i + 4));
    const uni = /^[uU]([0-9a-fA-F]{1,8})/.exec(s.slice(i + 1, i + 11));
    if (hex) (text += String.fromCharCode(parseInt(hex[1]!, 16))), (i += 1 + hex[0].length);
    else if (oct) (text += String.fromCharCode(parseInt(oct[0], 8))), (i += 1 + oct[0].length);
    else if (uni) (text += String.fromCodePoint(Math.min(parseInt(uni[1]!, 16), 0x10ffff))), (i += 1 + uni[0].length);
    else (text += ANSI_C[next] ?? `\\${next}`), (i += 2);
  }
  return { text, end: i < s.length ? i + 1 : -1 };
}

/** Splits `command` into tokens; nested commands go to `nested`. */
function lex(s: string, nested: string[]): { tokens: Token[]; complete: boolean } {
  const tokens: Token[] = [];
  const docs: HereDoc[] = [];
  let complete = true;
  let i = 0;
  while (i < s.length) {
    const ch = s[i]!;
    if (BLANK.has(ch)) {
      i++;
      continue;
    }
    // A line continuation disappears before bash splits words.
    if (ch === "\\" && s[i + 1] === "\n") {
      i += 2;
      continue;
    }
    if (ch === "#") {
      while (i < s.length && s[i] !== "\n") i++;
      continue;
    }
    const procSub = (ch === "<" || ch === ">") && s[i + 1] === "(";
    if (OPERATOR_START.has(ch) && !procSub) {
      const op = OPERATORS.find((o) => s.startsWith(o, i))!;
      tokens.push({ kind: "op", op, start: i, end: i + op.length });
      i += op.length;
      if (op === "<<" || op === "<<-") docs.push({ strip: op === "<<-", delimiter: null, expands: true });
      // Here-document bodies follow the line that opened them; only their substitutions run.
      if (op === "\n")
        for (const doc of docs.splice(0)) (i = hereDoc(s, i, doc, tokens, nested)), (complete &&= doc.read === true);
      continue;
    }
    const start = i;
    const word: Word = { text: "", raw: "", quoted: false, expands: false, dynamic: false };
    while (i < s.length) {
      const c = s[i]!;
      const atStart = i === start;
      if (BLANK.has(c)) break;
      if (OPERATOR_START.has(c) && !((c === "<" || c === ">") && s[i + 1] === "(")) break;
      if (c === "'") {
        const end = s.indexOf("'", i + 1);
        if (end < 0) return { tokens, complete: false };
        word.text += s.slice(i + 1, end);
        word.quoted = true;
        i = end + 1;
      } else if (c === "\\") {
        if (s[i + 1] !== "\n") {
          word.text += s[i + 1] ?? "";
          word.quoted = true;
        }
        i += 2;
      } else if (c === "$" && s[i + 1] === "'") {
        const { text, end } = ansiC(s, i + 2);
        if (end < 0) return { tokens, complete: false };
        word.text += text;
        word.quoted = true;
        i = end;
      } else if (c === '"' || (c === "$" && s[i + 1] === '"')) {
        i += c === "$" ? 2 : 1;
        word.quoted = true;
        while (i < s.length && s[i] !== '"') {
          const d = s[i]!;
          if (d === "\\" && '$`"\\\n'.includes(s[i + 1] ?? "")) {
            if (s[i + 1] !== "\n") word.text += s[i + 1];
            i += 2;
          } else if (d === "$" || d === "`") {
            const end = substitution(s, i, nested);
            if (end < 0) return { tokens, complete: false };
            word.text += s.slice(i, end);
            word.dynamic = true;
            i = end;
          } else word.text += s[i++];
        }
        if (i >= s.length) return { tokens, complete: false };
        i++;
      } else if (c === "$" || c === "`" || c === "<" || c === ">") {
        const end = substitution(s, i, nested);
        if (end < 0) return { tokens, complete: false };
        word.text += s.slice(i, end);
        word.dynamic = true;
        i = end;
      } else {
        if ("*?[{}".includes(c) || (c === "~" && (atStart || /[=:]$/.test(word.text)))) word.expands = true;
        word.text += c;
        i++;
      }
    }
    word.raw = s.slice(start, i);
    const prev = tokens.at(-1);
    if (prev?.kind === "op" && (prev.op === "<<" || prev.op === "<<-"))
      Object.assign(docs.at(-1)!, { delimiter: word.text, expands: !word.quoted });
    tokens.push({ kind: "word", word, start, end: i });
  }
  return { tokens, complete: complete && docs.length === 0 };
}

interface HereDoc {
  /** `<<-`: leading tabs are stripped from each line. */
  strip: boolean;
  delimiter: string | null;
  /** The delimiter was not quoted, so bash expands `$(...)`, backticks and `$VAR` in the body. */
  expands: boolean;
  /** Set by hereDoc: every substitution in the body closed. */
  read?: boolean;
}

/**
 * Reads one here-document body starting at `i` into a token; returns the index past its delimiter
 * line. In a body bash expands (`<<EOF`, not `<<'EOF'`), the commands of its substitutions go to
 * `nested`, as they would from a double-quoted word.
 */
function hereDoc(s: string, i: number, doc: HereDoc, tokens: Token[], nested: string[]): number {
  const lines: string[] = [];
  const start = i;
  while (i < s.length) {
    const nl = s.indexOf("\n", i);
    const line = s.slice(i, nl < 0 ? s.length : nl);
    i = nl < 0 ? s.length : nl + 1;
    if ((doc.strip ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
    lines.push(line);
  }
  const body = lines.join("\n");
  doc.read = true;
  for (let j = 0; doc.expands && j < body.length; j++) {
    if (body[j] === "\\") j++;
    else if (body[j] === "$" || body[j] === "`") {
      const end = substitution(body, j, nested);
      if (end < 0) doc.read = false;
      j = end < 0 ? body.length : end - 1;
    }
  }
  tokens.push({ kind: "heredoc", body, start, end: i });
  return i;
}

/** Consumes one `$...`, backtick or `<(`/`>(` construct at `i`; returns the index past it, -1 if unclosed. */
function substitution(s: string, i: number, nested: string[]): number {
  const c = s[i];
  if (c === "`") {
    const end = closeBacktick(s, i);
    // Inside backticks `\``, `\$` and `\\` stand for the character itself: a nested command.
    if (end > 0) nested.push(s.slice(i + 1, end - 1).replace(/\\([\\`$])/g, "$1"));
    return end;
  }
  if (c === "<" || c === ">") {
    const end = closeParen(s, i + 1);
    if (end > 0) nested.push(s.slice(i + 2, end - 1));
    return end;
  }
  const next = s[i + 1];
  if (next === "(") {
    const end = closeParen(s, i + 1);
    if (end > 0 && s[i + 2] !== "(") nested.push(s.slice(i + 2, end - 1));
    return end;
  }
  if (next === "{") {
    const end = s.indexOf("}", i + 2);
    return end < 0 ? -1 : end + 1;
  }
  const name = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])?/.exec(s.slice(i))!;
  return i + Math.max(name[0].length, 1);
}

/** Parses a command line into pipelines of simple commands. Never throws. */
export function parseShell(command: string): Parsed {
  const nested: string[] = [];
  const { tokens, complete } = lex(command, nested);
  const pipelines: Pipeline[] = [];
  let commands: SimpleCommand[] = [];
  let current: { cmd: SimpleCommand; start: number; end: number } | null = null;
  let pipeStart = -1;
  let pipeEnd = -1;
  const openDocs: SimpleCommand[] = [];
  const operators: string[] = [];
  let reserved = false;
  let fd: string | undefined;
  const endCommand = () => {
    if (current && (current.cmd.words.length > 0 || current.cmd.redirects.length > 0)) {
      current.cmd.raw = command.slice(current.start, current.end);
      current.cmd.start = current.start;
      current.cmd.end = current.end;
      commands.push(current.cmd);
    }
    current = null;
  };
  const endPipeline = () => {
    endCommand();
    if (commands.length > 0) pipelines.push({ raw: command.slice(pipeStart, pipeEnd), commands });
    commands = [];
    pipeStart = -1;
  };
  for (let t = 0; t < tokens.length; t++) {
    const tok = tokens[t]!;
    if (tok.kind === "heredoc") {
      openDocs.shift()?.stdin.push(tok.body);
      continue;
    }
    if (tok.kind === "op" && SEPARATORS.has(tok.op)) {
      operators.push(tok.op);
      endPipeline();
      continue;
    }
    if (pipeStart < 0) pipeStart = tok.start;
    pipeEnd = tok.end;
    if (tok.kind === "op" && (tok.op === "|" || tok.op === "|&")) {
      operators.push(tok.op);
      endCommand();
      continue;
    }
    current ??= {
      cmd: { raw: "", start: 0, end: 0, words: [], redirects: [], stdin: [] },
      start: tok.start,
      end: tok.end,
    };
    current.end = tok.end;
    if (tok.kind === "op") {
      const next = tokens[t + 1];
      const target = next?.kind === "word" ? next.word : undefined;
      if (target) {
        t++;
        current.end = next!.end;
        pipeEnd = next!.end;
      }
      current.cmd.redirects.push({ op: tok.op, target, ...(fd !== undefined ? { fd } : {}) });
      fd = undefined;
      if (tok.op === "<<" || tok.op === "<<-") openDocs.push(current.cmd);
      if (tok.op === "<<<" && target) current.cmd.stdin.push(target.text);
      continue;
    }
    const next = tokens[t + 1];
    // `2>file`: a digits-only word glued to a redirection is its file descriptor, not an argument.
    if (next?.kind === "op" && next.start === tok.end && /^[<>&]/.test(next.op) && /^\d+$/.test(tok.word.raw)) {
      fd = tok.word.raw;
      continue;
    }
    if (current.cmd.words.length === 0 && !tok.word.quoted && PREFIX_WORDS.has(tok.word.text)) {
      if (tok.word.text !== "!") reserved = true;
      continue;
    }
    current.cmd.words.push(tok.word);
  }
  endPipeline();
  const normalised = tokens
    .flatMap((tok) =>
      tok.kind === "word" ? [tok.word.text] : tok.kind === "op" ? [tok.op === "\n" ? ";" : tok.op] : [],
    )
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  return { pipelines, nested, complete, normalised, operators, reserved };
}

/** How deep substitutions and `sh -c` strings are followed; anything deeper is reported as truncated. */
export const MAX_NESTING = 8;

/**
 * Every simple command in `command`, including those nested in substitutions, down to
 * MAX_NESTING levels; `truncated` says a deeper one was not read (a check must not trust it).
 */
export function allCommands(
  command: string,
  depth = 0,
): { commands: SimpleCommand[]; pipelines: Pipeline[]; truncated: boolean } {
  const parsed = parseShell(command);
  const pipelines = [...parsed.pipelines];
  let truncated = depth >= MAX_NESTING && parsed.nested.length > 0;
  if (depth < MAX_NESTING) {
    for (const inner of parsed.nested) {
      const sub = allCommands(inner, depth + 1);
      pipelines.push(...sub.pipelines);
      truncated ||= sub.truncated;
    }
  }
  return { pipelines, commands: pipelines.flatMap((p) => p.commands), truncated };
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** True when bash would read this word as a `NAME=value` assignment. */
export function isAssignment(word: Word): boolean {
  const m = ASSIGNMENT.exec(word.raw);
  return m !== null && word.text.startsWith(m[0]);
}

/** The last path component: `/usr/bin/git` -> `git`. */
export const baseName = (program: string): string => program.slice(program.lastIndexOf("/") + 1);
