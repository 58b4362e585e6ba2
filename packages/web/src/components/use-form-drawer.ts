import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { App, type FormInstance } from 'antd';
import { useEffect, useRef, useState } from 'react';

interface OpeningRecordOptions<Id, Row, Values> {
  /** Whether the form is shown; a form mounted only while shown passes true. */
  open: boolean;
  /** The record to edit; none means create. */
  id: Id | undefined;
  queryKey: readonly unknown[];
  fetch: (id: Id, signal: AbortSignal) => Promise<Row>;
  form: FormInstance<Values>;
  /** The form's values when creating. */
  blank?: Values;
  toForm: (row: Row) => Values;
}

type DrawerRecordOptions<Row, Values> = OpeningRecordOptions<number, Row, Values> & { blank: Values };

/**
 * Numbers the openings of every edit form in the console, so no two share one: a drawer opened again
 * and a form mounted again (a page visited again, a form rendered only while its drawer is open) each
 * get a number, and so a query, that no earlier opening had.
 */
let lastOpening = 0;

/**
 * This opening's number: drawn when the form mounts open and each time it opens again (React's "state
 * from the previous render" pattern: no effect, no extra render with the old number).
 */
function useOpening(open: boolean): number {
  const [opening, setOpening] = useState(() => (open ? ++lastOpening : 0));
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setOpening(++lastOpening);
  }
  return opening;
}

interface OpeningQueryOptions<Row> {
  queryKey: readonly unknown[];
  queryFn: (signal: AbortSignal) => Promise<Row>;
  enabled?: boolean;
}

/** The query of opening number `opening`, fetched only while the form is open. */
function useQueryOfOpening<Row>(open: boolean, opening: number, { queryKey, queryFn, enabled = true }: OpeningQueryOptions<Row>): UseQueryResult<Row> {
  return useQuery({
    queryKey: [...queryKey, opening],
    queryFn: ({ signal }) => queryFn(signal),
    enabled: open && enabled,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/**
 * A query of its own for each opening of a form (or of a part of one, such as a budget beside it):
 * fetched when the form opens, never answered from an earlier opening, and not refetched while open
 * unless invalidated (by a save of its own). A refetch while open could bring a changed answer that
 * refills what the user is typing into.
 */
export function useOpeningQuery<Row>(open: boolean, options: OpeningQueryOptions<Row>): UseQueryResult<Row> {
  return useQueryOfOpening(open, useOpening(open), options);
}

/**
 * Loads the edited record fresh for each opening of its form (another administrator may have changed
 * it) and fills the form with it once, or with the blank values when creating.
 *
 * Each opening has its own query, so the form is never shown with a previous opening's copy and then
 * filled again when the fresh one arrives: that second fill silently undid whatever the user had typed
 * in between. For the same reason the record does not refetch while the form is open (window focus,
 * an invalidation elsewhere), and the form is filled only once per opening.
 */
export function useOpeningRecord<Id, Row, Values>({
  open,
  id,
  queryKey,
  fetch,
  form,
  blank,
  toForm,
}: OpeningRecordOptions<Id, Row, Values>): UseQueryResult<Row> {
  const creating = id === undefined;
  const opening = useOpening(open);
  const record = useQueryOfOpening(open, opening, { queryKey: [...queryKey, id], queryFn: (signal) => fetch(id as Id, signal), enabled: !creating });
  const filledOpening = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!open || filledOpening.current === opening) return;
    const values = creating ? blank : record.data && toForm(record.data);
    if (values === undefined) return;
    form.setFieldsValue(values as Parameters<typeof form.setFieldsValue>[0]);
    filledOpening.current = opening;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- blank and toForm are the caller's constants; the record is what changes
  }, [open, opening, creating, record.data, form]);
  return record;
}

/** useOpeningRecord for a drawer that also creates: undefined when creating. */
export function useDrawerRecord<Row, Values>(options: DrawerRecordOptions<Row, Values>): UseQueryResult<Row> | undefined {
  const record = useOpeningRecord(options);
  return options.id === undefined ? undefined : record;
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
