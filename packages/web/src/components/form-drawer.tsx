import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Drawer, Flex, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useIsMobile } from '../lib/use-is-mobile.ts';

interface FormDrawerProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  /** Width on a wide screen; a phone gets the whole width. */
  width: number;
  /** The edited record's query; absent when creating. */
  record?: UseQueryResult<unknown>;
  saving: boolean;
  cancelText: string;
  submitText: string;
  /** Submits the form inside (usually `form.submit`). */
  onSubmit: () => void;
  /** What a failed load of the edited record says. */
  loadError: (error: Error) => ReactNode;
  /** The form, shown once there is something to edit. */
  children: ReactNode;
}

/**
 * The side drawer every create/edit form uses: cancel and submit in the footer, a spinner while the
 * edited record loads, its load error, and the form once the record (or a blank one) is there.
 */
export function FormDrawer({ open, onClose, title, width, record, saving, cancelText, submitText, onSubmit, loadError, children }: FormDrawerProps) {
  const mobile = useIsMobile();
  const ready = !record || record.data !== undefined;
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={title}
      size={mobile ? '100%' : width}
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{cancelText}</Button>
          <Button type="primary" loading={saving} disabled={!ready} onClick={onSubmit}>
            {submitText}
          </Button>
        </Flex>
      }
    >
      {record?.isLoading && <Spin style={{ display: 'block', margin: '48px auto' }} />}
      {record?.isError && <Alert type="error" showIcon title={loadError(record.error)} />}
      {ready && children}
    </Drawer>
  );
}
