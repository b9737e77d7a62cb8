import { useState } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { decimalMark, formatTypedNumber, parseTypedNumber } from './typed-number.ts';

export interface NumberTextInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'type'> {
  /** The stored value: a number, nothing, or a text that was typed and is no number. */
  value: unknown;
  /** A number, undefined when emptied, or the text as typed when it is no number (the form refuses it). */
  onChange: (value: number | string | undefined) => void;
}

/**
 * A number field that keeps what was typed (issue 27 item 1). A text input, not Mantine's
 * NumberInput: that one drops a decimal comma ("0,5" became "05") and clamps to min/max, where the
 * form must show the rule broken instead. The schema's min, max and integer rules are the form
 * validator's; this only reads and writes numbers in the UI language's notation.
 */
export function NumberTextInput({ value, onChange, ...rest }: NumberTextInputProps) {
  const { i18n } = useTranslation();
  const mark = decimalMark(i18n.language);
  // The text shown and the value it stands for: a new value from outside (a reset, a default)
  // replaces the text; the value this input sent itself keeps the text as typed ("0,50", "-").
  const [typed, setTyped] = useState(() => ({ text: formatTypedNumber(value, mark), value }));
  let shown = typed;
  if (!Object.is(typed.value, value) && !(typed.value === undefined && value === null)) {
    shown = { text: formatTypedNumber(value, mark), value };
    setTyped(shown);
  }
  return (
    <TextInput
      {...rest}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      value={shown.text}
      onChange={(event) => {
        const text = event.currentTarget.value;
        const parsed = parseTypedNumber(text);
        const next = parsed.kind === 'number' ? parsed.value : parsed.kind === 'empty' ? undefined : text;
        setTyped({ text, value: next });
        onChange(next);
      }}
    />
  );
}
