import { Checkbox, Form, Modal, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { RichContent } from '../../../components/rich-content.tsx';
import { type LegalDocumentKind, useLegalDocument } from '../api/legal-document.ts';

function LegalDocumentModal({ kind, onClose }: { kind: LegalDocumentKind | null; onClose: () => void }) {
  const { t } = useTranslation('auth');
  const document = useLegalDocument(kind ?? 'user-agreement', kind !== null);
  const title = kind ? t(`legal.${kind}`) : '';
  return (
    <Modal open={kind !== null} title={title} onCancel={onClose} onOk={onClose} cancelButtonProps={{ style: { display: 'none' } }} width={720}>
      {document.isLoading ? <Skeleton active /> : <RichContent content={document.data ?? ''} title={title} />}
    </Modal>
  );
}

/**
 * The required checkbox under the registration form when the administrator published a user
 * agreement or a privacy policy; each name opens the document, rendered like the about page.
 */
export function LegalConsent({ userAgreement, privacyPolicy }: { userAgreement: boolean; privacyPolicy: boolean }) {
  const { t } = useTranslation('auth');
  const [open, setOpen] = useState<LegalDocumentKind | null>(null);
  const link = (kind: LegalDocumentKind) => (
    <Typography.Link
      onClick={(event) => {
        // The link sits inside the checkbox's label: opening the document must not tick the box.
        event.preventDefault();
        setOpen(kind);
      }}
    >
      {t(`legal.${kind}`)}
    </Typography.Link>
  );
  const documents = userAgreement && privacyPolicy ? 'both' : userAgreement ? 'agreement' : 'policy';
  return (
    <>
      <Form.Item
        name="agreed_to_terms"
        valuePropName="checked"
        rules={[{ validator: (_rule, value) => (value === true ? Promise.resolve() : Promise.reject(new Error(t('legal.required')))) }]}
      >
        <Checkbox>
          <Trans t={t} i18nKey={`legal.accept.${documents}`} components={{ agreement: link('user-agreement'), policy: link('privacy-policy') }} />
        </Checkbox>
      </Form.Item>
      <LegalDocumentModal kind={open} onClose={() => setOpen(null)} />
    </>
  );
}
