import { Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OptionField } from '../lib/option-field.ts';

/** The antd control for one kind of setting (Form.Item passes value/onChange through). */
export function OptionInput({
  field,
  ...control
}: {
  field: OptionField;
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  onBlur?: () => void;
}) {
  const { t } = useTranslation('settings');
  const { id, value, onChange, onBlur } = control;
  switch (field.kind) {
    case 'switch':
      return <Switch id={id} checked={Boolean(value)} onChange={(checked) => onChange?.(checked)} />;
    case 'number':
      return (
        <InputNumber<number>
          id={id}
          value={value as number | null}
          onChange={(next) => onChange?.(next)}
          onBlur={onBlur}
          min={field.min}
          precision={field.decimal ? undefined : 0}
          style={{ width: '100%' }}
        />
      );
    case 'secret':
      return (
        <Input.Password
          id={id}
          value={value as string}
          onChange={(event) => onChange?.(event.target.value)}
          onBlur={onBlur}
          placeholder={t('secretPlaceholder')}
          autoComplete="new-password"
        />
      );
    case 'textarea':
    case 'json':
      return (
        <Input.TextArea
          id={id}
          value={value as string}
          onChange={(event) => onChange?.(event.target.value)}
          onBlur={onBlur}
          autoSize={{ minRows: field.rows ?? (field.kind === 'json' ? 6 : 3), maxRows: 24 }}
          style={field.kind === 'json' ? { fontFamily: 'monospace' } : undefined}
          spellCheck={false}
        />
      );
    case 'select':
      return (
        <Select
          id={id}
          value={value as string}
          onChange={(next) => onChange?.(next)}
          // An empty value (no preference) is labelled under `choices.none`.
          options={(field.choices ?? []).map((choice) => ({ value: choice, label: t(`choices.${choice || 'none'}`) }))}
        />
      );
    default:
      return <Input id={id} value={value as string} onChange={(event) => onChange?.(event.target.value)} onBlur={onBlur} />;
  }
}
