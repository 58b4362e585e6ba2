import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { App, type FormInstance } from 'antd';
import { useEffect, useState } from 'react';

interface DrawerRecordOptions<Row, Values> {
  open: boolean;
  /** The record to edit; none means create. */
  id: number | undefined;
  queryKey: readonly unknown[];
  fetch: (id: number, signal: AbortSignal) => Promise<Row>;
  form: FormInstance<Values>;
  /** The form's values when creating. */
  blank: Values;
  toForm: (row: Row) => Values;
}

/**
 * Loads the edited record fresh each time the drawer opens (another administrator may have changed
 * it) and fills the form with it, or with the blank values when creating. Undefined when creating.
 */
export function useDrawerRecord<Row, Values>({
  open,
  id,
  queryKey,
  fetch,
  form,
  blank,
  toForm,
}: DrawerRecordOptions<Row, Values>): UseQueryResult<Row> | undefined {
  const creating = id === undefined;
  const record = useQuery({ queryKey: [...queryKey, id], queryFn: ({ signal }) => fetch(id ?? 0, signal), enabled: open && !creating, staleTime: 0 });
  useEffect(() => {
    if (!open) return;
    if (creating) form.setFieldsValue(blank as Parameters<typeof form.setFieldsValue>[0]);
    else if (record.data) form.setFieldsValue(toForm(record.data) as Parameters<typeof form.setFieldsValue>[0]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- blank and toForm are the caller's constants; the record is what changes
  }, [open, creating, record.data, form]);
  return creating ? undefined : record;
}

/**
 * Runs a drawer's save: the button spins meanwhile, success shows the message `save` returns and
 * calls `onDone`, a failure shows the server's message and keeps the drawer open.
 */
export function useSaveAction(onDone: () => void): { saving: boolean; run: (save: () => Promise<string>) => Promise<void> } {
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  async function run(save: () => Promise<string>) {
    setSaving(true);
    try {
      void message.success(await save());
      onDone();
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSaving(false);
    }
  }
  return { saving, run };
}
