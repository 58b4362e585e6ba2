/** One setting on a settings form; `key` is the option name, the label comes from `fields.<key>`. */
export interface OptionField {
  key: string;
  kind: 'switch' | 'text' | 'secret' | 'number' | 'textarea' | 'json' | 'select';
  min?: number;
  /** Number fields: allow decimals (prices, ratios). */
  decimal?: boolean;
  /** Select fields: value and label key under `choices.`. */
  choices?: readonly string[];
  /** Addresses that get paths appended lose a trailing slash before saving. */
  trimTrailingSlash?: boolean;
  rows?: number;
  /** Help text key under `help.` shown under the field. */
  help?: boolean;
}

/** Form value → stored option text (switches 'true'/'false', numbers as typed, text trimmed where it should be). */
export function toOptionText(field: OptionField, value: unknown): string {
  if (field.kind === 'switch') return value ? 'true' : 'false';
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (field.trimTrailingSlash) return text.trim().replace(/\/+$/, '');
  return field.kind === 'textarea' || field.kind === 'json' ? text : text.trim();
}

/** Stored option text → form value. Secrets are never sent by the server, so they load empty. */
export function toFormValue(field: OptionField, text: string | undefined): unknown {
  if (field.kind === 'switch') return text === 'true';
  if (field.kind === 'number') return text === undefined || text === '' ? null : Number(text);
  if (field.kind === 'secret') return '';
  return text ?? '';
}

/** The JSON check the spec runs on blur for GroupRatio, UserUsableGroups, ModelPrice, ModelRatio, CompletionRatio, Chats. */
export function isValidJson(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
