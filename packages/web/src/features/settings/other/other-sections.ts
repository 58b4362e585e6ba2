import type { OptionField } from '../lib/option-field.ts';

/** Content shown to visitors: each saved on its own. HTML and Markdown fields are sanitised where shown. */
export const otherSections: ReadonlyArray<{ id: string; fields: readonly OptionField[] }> = [
  { id: 'notice', fields: [{ key: 'Notice', kind: 'textarea', rows: 4, help: true }] },
  { id: 'systemName', fields: [{ key: 'SystemName', kind: 'text' }] },
  { id: 'logo', fields: [{ key: 'Logo', kind: 'text', help: true }] },
  { id: 'homePage', fields: [{ key: 'HomePageContent', kind: 'textarea', rows: 6, help: true }] },
  { id: 'about', fields: [{ key: 'About', kind: 'textarea', rows: 6, help: true }] },
  { id: 'footer', fields: [{ key: 'Footer', kind: 'textarea', rows: 3, help: true }] },
];
