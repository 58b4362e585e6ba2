import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Flex, Form, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createToken } from '../api/create-token.ts';
import { getToken } from '../api/get-token.ts';
import { updateToken } from '../api/update-token.ts';
import { useIsMobile } from '../../../lib/use-is-mobile.ts';
import { emptyTokenForm, formToTokenInput, tokenToForm, type TokenFormValues } from '../lib/token-form.ts';
import { TokenAccessSection } from './token-access-section.tsx';
import { TokenBasicsSection } from './token-basics-section.tsx';
import { TokenQuotaSection } from './token-quota-section.tsx';

interface TokenDrawerProps {
  open: boolean;
  /** The token to edit; none means create. */
  tokenId?: number;
  onClose: () => void;
  onSaved: () => void;
}

/** Creates one or several tokens, or edits one. */
export function TokenDrawer({ open, tokenId, onClose, onSaved }: TokenDrawerProps) {
  const { t } = useTranslation('tokens');
  const { message } = App.useApp();
  const [form] = Form.useForm<TokenFormValues>();
  const [saving, setSaving] = useState(false);
  const narrow = useIsMobile();
  const creating = tokenId === undefined;
  const token = useQuery({ queryKey: ['tokens', 'one', tokenId], queryFn: ({ signal }) => getToken(tokenId ?? 0, signal), enabled: open && !creating, staleTime: 0 });

  useEffect(() => {
    if (!open) return;
    if (creating) form.setFieldsValue(emptyTokenForm);
    else if (token.data) form.setFieldsValue(tokenToForm(token.data));
  }, [open, creating, token.data, form]);

  async function submit(values: TokenFormValues) {
    setSaving(true);
    try {
      if (tokenId !== undefined) {
        await updateToken(tokenId, formToTokenInput(values));
        void message.success(t('messages.updated'));
      } else {
        await createToken(formToTokenInput(values), values.count);
        void message.success(t('messages.created'));
      }
      onSaved();
      onClose();
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={creating ? t('drawer.createTitle') : t('drawer.editTitle')}
      size={narrow ? '100%' : 560}
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('drawer.cancel')}</Button>
          <Button type="primary" loading={saving} disabled={!creating && !token.data} onClick={() => form.submit()}>
            {t('drawer.submit')}
          </Button>
        </Flex>
      }
    >
      {!creating && token.isLoading && <Spin style={{ display: 'block', margin: '48px auto' }} />}
      {!creating && token.isError && <Alert type="error" showIcon title={t('drawer.loadFailed', { message: token.error.message })} />}
      {(creating || token.data) && (
        <Form form={form} layout="vertical" initialValues={emptyTokenForm} onFinish={(values) => void submit(values)} preserve={false}>
          <TokenBasicsSection creating={creating} />
          <TokenQuotaSection creating={creating} />
          <TokenAccessSection />
        </Form>
      )}
    </Drawer>
  );
}
