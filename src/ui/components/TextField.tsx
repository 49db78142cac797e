// A single-line field: ink-text-input, with its keys routed by the controller (input/field-router.ts)
// rather than read from the terminal, since the terminal has one reader. The field owns its text
// editing and cursor; the dialog around it owns Esc, Tab and list keys, and what Enter does
// (`onSubmit`). The value lives in the store: `onChange` is the dialog's controller action.
import { Box, Text, Transform, useStdin } from "ink";
import TextInput from "ink-text-input";
import { useEffect, useRef, useState } from "react";
import { useApp } from "../context/useStore.js";
import { CLEAR_FIELD } from "../input/field-router.js";
import { applyNow } from "../terminal/ink-updates.js";

export interface TextFieldProps {
  value: string;
  onChange(value: string): void;
  onSubmit?(value: string): void;
  /** Columns the field may use; a longer value wraps onto more rows. */
  width: number;
  /** Only the focused field takes keys (and shows its cursor). */
  focus?: boolean;
  /** Shown for each character instead (secrets). */
  mask?: string;
  /** Shown dimmed while the value is empty. */
  placeholder?: string;
}

/** ink-text-input's cursor: one character in reverse video. */
const reverse = /\x1b\[7m([^\x1b]*)\x1b\[27m/g;

export function TextField({ value, onChange, onSubmit, width, focus = true, mask, placeholder }: TextFieldProps) {
  const { ctl, palette, ascii } = useApp();
  const { internal_eventEmitter: keys } = useStdin();
  // The store tells components about a change at most once a frame, so the value it gives back
  // lags the keys: the field edits its own copy, and takes the store's when that changes from
  // elsewhere (a reset, a recalled entry).
  // A value the field did not type itself (a reset, Ctrl-U) starts a new input, whose cursor is
  // at its end: ink-text-input would otherwise move its cursor in a later, separate render.
  const [text, setText] = useState(value);
  const [given, setGiven] = useState(value);
  const [generation, setGeneration] = useState(0);
  // What this field reported lately: the store may give one back late (an echo, not a change).
  const reported = useRef<string[]>([]).current;
  if (value !== given) {
    setGiven(value);
    if (value !== text && !reported.includes(value)) {
      setText(value);
      setGeneration((g) => g + 1);
      reported.length = 0;
    }
  }
  const report = (next: string) => {
    reported.push(next);
    if (reported.length > 64) reported.shift();
    onChange(next);
  };
  const change = (next: string) => {
    setText(next);
    report(next);
  };
  const clear = () => {
    setText("");
    setGeneration((g) => g + 1);
    report("");
  };
  // Ctrl-U arrives through the effect below, which must reach this render's `onChange`.
  const latest = useRef(clear);
  latest.current = clear;
  useEffect(() => {
    if (!focus) return undefined;
    // Each key renders before the next one comes (terminal/ink-updates.ts).
    return ctl.fields.attach((sequence) =>
      applyNow(() => (sequence === CLEAR_FIELD ? latest.current() : keys.emit("input", sequence))),
    );
  }, [ctl, keys, focus]);
  // Without colour (depth 0: NO_COLOR, a dumb terminal) no escape code may reach the screen: the
  // cursor becomes a mark before its character, as the first frame draws it (view/dialog-frame.ts).
  const mark = palette.accent(ascii ? "|" : "▏");
  const plain = palette.depth === 0;
  const cursor = (line: string) => line.replace(reverse, (_m, ch: string) => `${mark}${ch === " " ? "" : ch}`);
  const input = (
    <TextInput
      key={generation}
      value={text}
      onChange={change}
      onSubmit={onSubmit ?? (() => {})}
      focus={focus}
      {...(mask ? { mask } : {})}
    />
  );
  return (
    <Box width={width}>
      <Box flexShrink={0}>{plain ? <Transform transform={cursor}>{input}</Transform> : input}</Box>
      {/* Its own placeholder, dimmed by the palette: ink-text-input's is always grey. */}
      {text === "" && placeholder ? <Text wrap="truncate-end">{palette.dim(placeholder)}</Text> : null}
    </Box>
  );
}
