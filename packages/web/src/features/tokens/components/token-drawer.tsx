import type { TokenView } from '@switchboard/contracts';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDrawer } from '../../../components/form-drawer.tsx';
import { useDrawerRecord, useSaveAction } from '../../../components/use-form-drawer.ts';
import { createToken } from '../api/create-token.ts';
import { getToken } from '../api/get-token.ts';
import { updateToken } from '../api/update-token.ts';
import { emptyTokenForm, formToTokenInput, tokenToForm, type TokenFormValues } from '../lib/token-form.ts';
import { TokenAccessSection } from './token-access-section.tsx';
import { TokenBasicsSection } from './token-basics-section.tsx';
import { TokenBudgetSection } from './token-budget-section.tsx';
import { TokenLimitsSection } from './token-limits-section.tsx';
import { TokenPayloadSection } from './token-payload-section.tsx';
import { TokenRoutingSection } from './token-routing-section.tsx';
import { TokenQuotaSection } from './token-quota-section.tsx';

interface TokenDrawerProps {
  open: boolean;
  /** The token to edit; none means create. */
  tokenId?: number;
  onClose: () => void;
  onSaved: () => void;
  /** The tokens just created, so their keys can be shown once. */
  onCreated: (tokens: TokenView[]) => void;
}

/** Creates one or several tokens, or edits one. */
export function TokenDrawer({ open, tokenId, onClose, onSaved, onCreated }: TokenDrawerProps) {
  const { t } = useTranslation('tokens');
  const [form] = Form.useForm<TokenFormValues>();
  const creating = tokenId === undefined;
  const token = useDrawerRecord({ open, id: tokenId, queryKey: ['tokens', 'one'], fetch: getToken, form, blank: emptyTokenForm, toForm: tokenToForm });
  const { saving, run } = useSaveAction(() => {
    onSaved();
    onClose();
  });

  const submit = (values: TokenFormValues) =>
    run(async () => {
      if (tokenId !== undefined) {
        await updateToken(tokenId, formToTokenInput(values));
        return t('messages.updated');
      }
      onCreated(await createToken(formToTokenInput(values), values.count));
      return t('messages.created');
    });

  return (
    <FormDrawer
      open={open}
      onClose={onClose}
      title={creating ? t('drawer.createTitle') : t('drawer.editTitle')}
      width={560}
      record={token}
      saving={saving}
      cancelText={t('drawer.cancel')}
      submitText={t('drawer.submit')}
      onSubmit={() => form.submit()}
      loadError={(error) => t('drawer.loadFailed', { message: error.message })}
    >
      <Form form={form} layout="vertical" initialValues={emptyTokenForm} onFinish={(values) => void submit(values)} preserve={false}>
        <TokenBasicsSection creating={creating} />
        <TokenQuotaSection creating={creating} />
        <TokenAccessSection />
        <TokenLimitsSection />
        <TokenRoutingSection />
        <TokenPayloadSection />
      </Form>
      <TokenBudgetSection tokenId={tokenId} />
    </FormDrawer>
  );
}
