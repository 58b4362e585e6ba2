import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Form, Row } from 'antd';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { statusQueryKey } from '../../../lib/system-status.ts';
import { optionsKey } from '../api/options.ts';
import { isValidJson, toFormValue, toOptionText, type OptionField } from '../lib/option-field.ts';
import { saveChangedOptions } from '../lib/save-changed-options.ts';
import { OptionInput } from './option-input.tsx';

export interface OptionSectionProps {
  /** Section id: title key `sections.<id>`, test id `section-<id>`. */
  id: string;
  fields: readonly OptionField[];
  options: Record<string, string>;
  /** Adjusts the values to save (a setting implied by another); runs before `validate`. */
  normalize?: (draft: Record<string, string>) => Record<string, string>;
  /** Checks across fields before saving; returns a message to show, or nothing when fine. */
  validate?: (draft: Record<string, string>, loaded: Record<string, string>) => string | undefined;
  /** Asks before saving (e.g. turning password login off); resolves false to cancel. */
  confirm?: (draft: Record<string, string>, loaded: Record<string, string>) => Promise<boolean>;
  /** Extra content under the fields (buttons of the section, explanations). */
  children?: ReactNode;
}

/**
 * A settings section: its fields, one save button, and the spec's saving rules — only changed keys
 * are sent, nothing changed warns 'you seem to have changed nothing', JSON fields are checked on blur.
 */
export function OptionSection({ id, fields, options, normalize, validate, confirm, children }: OptionSectionProps) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Record<string, unknown>>();
  const [busy, setBusy] = useState(false);
  const secretKeys = useMemo(() => new Set(fields.filter((field) => field.kind === 'secret').map((field) => field.key)), [fields]);

  // What each field last showed from the server (or, once saved here, what it saved): a field whose value
  // is still that has not been changed here since, and follows the options when they are read again.
  const filled = useRef<Record<string, unknown> | undefined>(undefined);
  // The options are read again whenever any section is saved (bringing in other administrators' changes
  // too): only the fields not changed here since follow them. Filling them all undid what had been typed
  // here and not yet saved, or typed here while this section's own save was being read back.
  useEffect(() => {
    const next: Record<string, unknown> = Object.fromEntries(fields.map((field) => [field.key, toFormValue(field, options[field.key])]));
    const previous = filled.current;
    const current = form.getFieldsValue(fields.map((field) => field.key)) as Record<string, unknown>;
    filled.current = next;
    form.setFieldsValue(previous ? Object.fromEntries(Object.entries(next).filter(([key]) => Object.is(current[key], previous[key]))) : next);
  }, [form, fields, options]);

  const save = async () => {
    try {
      await form.validateFields();
    } catch {
      void message.error(t('messages.checkInput'));
      return;
    }
    const values = form.getFieldsValue();
    const typed = Object.fromEntries(fields.map((field) => [field.key, toOptionText(field, values[field.key])]));
    const draft = normalize ? normalize(typed) : typed;
    const problem = validate?.(draft, options);
    if (problem) {
      void message.error(problem);
      return;
    }
    if (confirm && !(await confirm(draft, options))) return;
    setBusy(true);
    try {
      const result = await saveChangedOptions(draft, options, secretKeys);
      if (result.outcome === 'unchanged') void message.warning(t('messages.nothingChanged'));
      else if (result.outcome === 'saved') void message.success(t('messages.saved'));
      else
        void message.error(
          `${t(result.outcome === 'partial' ? 'messages.partialFailure' : 'messages.saveFailed')}${result.firstError ? `: ${result.firstError}` : ''}`,
        );
      if (result.outcome !== 'unchanged') {
        // What was sent is what these fields now stand for: the answer read back replaces it (a value the
        // server adjusted, a secret emptied again) unless it is changed again meanwhile.
        filled.current = { ...filled.current, ...values };
        await queryClient.invalidateQueries({ queryKey: optionsKey });
        await queryClient.invalidateQueries({ queryKey: statusQueryKey });
      }
    } finally {
      setBusy(false);
    }
  };

  const wide = (field: OptionField) => field.kind === 'textarea' || field.kind === 'json';
  return (
    <Card title={t(`sections.${id}`)} size="small" data-testid={`section-${id}`} style={{ marginBottom: 16 }}>
      <Form form={form} layout="vertical">
        <Row gutter={16}>
          {fields.map((field) => (
            <Col key={field.key} xs={24} md={wide(field) ? 24 : field.kind === 'switch' ? 8 : 12}>
              <Form.Item
                name={field.key}
                label={t(`fields.${field.key}`)}
                valuePropName="value"
                extra={field.help ? t(`help.${field.key}`) : undefined}
                validateTrigger={field.kind === 'json' ? 'onBlur' : 'onChange'}
                rules={
                  field.kind === 'json'
                    ? [
                        {
                          validator: (_rule, value: string) =>
                            isValidJson(value ?? '') ? Promise.resolve() : Promise.reject(new Error(t('messages.invalidJson'))),
                        },
                      ]
                    : undefined
                }
              >
                <OptionInput field={field} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        {children}
        <Button type="primary" onClick={() => void save()} loading={busy} data-testid={`save-${id}`}>
          {t('save', { section: t(`sections.${id}`) })}
        </Button>
      </Form>
    </Card>
  );
}
