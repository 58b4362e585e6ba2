import { InputNumber } from 'antd';
import { useState } from 'react';

interface NumberCellProps {
  value: number;
  min: number;
  /** Called on blur with a changed integer; an empty field does nothing. */
  onCommit: (value: number) => void;
  label: string;
}

/** Priority or weight edited in place, saved when the field loses focus. */
export function NumberCell({ value, min, onCommit, label }: NumberCellProps) {
  const [draft, setDraft] = useState<number | null>(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    // The row was reloaded with a new value: show it.
    setShown(value);
    setDraft(value);
  }
  return (
    <InputNumber
      size="small"
      style={{ width: 80 }}
      min={min}
      precision={0}
      value={draft}
      aria-label={label}
      onChange={(next) => setDraft(next === null ? null : Number(next))}
      onBlur={() => {
        if (draft === null || Number.isNaN(draft)) return;
        const next = Math.max(min, Math.trunc(draft));
        if (next !== value) onCommit(next);
      }}
    />
  );
}
