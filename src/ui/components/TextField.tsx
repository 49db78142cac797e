// A single-line field: ink-text-input, with its keys routed by the controller (input/field-router.ts)
// rather than read from the terminal, since the terminal has one reader. The field owns its text
// editing and cursor; the dialog around it owns Esc, Tab and list keys, and what Enter does
// (`onSubmit`). The value lives in the store: `onChange` is the dialog's controller action.
import { Box, useStdin } from "ink";
import TextInput from "ink-text-input";
import { useEffect, useState } from "react";
import { useApp } from "../context/useStore.js";
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
}

export function TextField({ value, onChange, onSubmit, width, focus = true, mask }: TextFieldProps) {
  const { ctl } = useApp();
  const { internal_eventEmitter: input } = useStdin();
  // The store tells components about a change at most once a frame, so the value it gives back
  // lags the keys: the field edits its own copy, and takes the store's when that changes from
  // elsewhere (a reset, a recalled entry).
  const [text, setText] = useState(value);
  const [given, setGiven] = useState(value);
  if (value !== given) {
    setGiven(value);
    if (value !== text) setText(value);
  }
  const change = (next: string) => {
    setText(next);
    onChange(next);
  };
  useEffect(() => {
    if (!focus) return undefined;
    // Each key renders before the next one comes (terminal/ink-updates.ts).
    return ctl.fields.attach((sequence) => applyNow(() => input.emit("input", sequence)));
  }, [ctl, input, focus]);
  return (
    <Box width={width}>
      <TextInput
        value={text}
        onChange={change}
        onSubmit={onSubmit ?? (() => {})}
        focus={focus}
        {...(mask ? { mask } : {})}
      />
    </Box>
  );
}
