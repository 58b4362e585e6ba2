import { Button, Flex, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** What the dialog shows: the keys of tokens just created, or the key a "View" asked for. */
export interface ShownKeys {
  reason: 'created' | 'view';
  keys: Array<{ name: string; key: string }>;
}

/** The full `sk-` keys in a dialog, each on its own line with a copy button. */
export function TokenKeyDialog({ shown, onCopy, onClose }: { shown: ShownKeys | null; onCopy: (text: string) => void; onClose: () => void }) {
  const { t } = useTranslation('tokens');
  const keys = shown?.keys ?? [];
  const title = shown?.reason === 'created' ? t('keyDialog.createdTitle', { count: keys.length }) : t('keyDialog.viewTitle', { name: keys[0]?.name ?? '' });
  return (
    <Modal
      open={shown !== null}
      title={title}
      onCancel={onClose}
      width={640}
      footer={
        <Flex justify="end" gap={8}>
          {keys.length > 1 && <Button onClick={() => onCopy(keys.map((entry) => `${entry.name}    ${entry.key}`).join('\n'))}>{t('keyDialog.copyAll')}</Button>}
          <Button type="primary" onClick={onClose}>
            {t('keyDialog.close')}
          </Button>
        </Flex>
      }
      data-testid="token-key-dialog"
    >
      <Flex vertical gap={12}>
        {shown?.reason === 'created' && <Typography.Paragraph style={{ marginBottom: 0 }}>{t('keyDialog.createdHelp')}</Typography.Paragraph>}
        {keys.map((entry) => (
          <Flex key={entry.key} vertical gap={4}>
            {keys.length > 1 && <Typography.Text strong>{entry.name}</Typography.Text>}
            <Flex gap={8}>
              <Input
                readOnly
                value={entry.key}
                aria-label={t('keyDialog.keyLabel', { name: entry.name })}
                style={{ fontFamily: 'monospace' }}
                onFocus={(event) => event.target.select()}
              />
              <Button type="primary" onClick={() => onCopy(entry.key)}>
                {t('actions.copy')}
              </Button>
            </Flex>
          </Flex>
        ))}
      </Flex>
    </Modal>
  );
}
