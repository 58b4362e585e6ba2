import { Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RichContent } from '../../../components/rich-content.tsx';

const seenKey = 'notice_seen';

/** The administrator's notice pops up on the home page until closed; a changed notice pops up again. */
export function NoticeModal({ notice }: { notice: string }) {
  const { t } = useTranslation('home');
  const [open, setOpen] = useState(() => notice.trim() !== '' && localStorage.getItem(seenKey) !== notice);
  const close = () => {
    localStorage.setItem(seenKey, notice);
    setOpen(false);
  };
  return (
    <Modal
      open={open}
      title={t('notice')}
      onCancel={close}
      onOk={close}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText={t('close')}
      data-testid="notice-modal"
    >
      <RichContent content={notice} title={t('notice')} />
    </Modal>
  );
}
