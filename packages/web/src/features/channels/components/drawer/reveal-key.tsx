import { useMutation } from '@tanstack/react-query';
import { App, Button, Popconfirm, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { revealChannelKey } from '../../api/reveal-channel-key.ts';

/**
 * The super administrator's "view key": the editor never receives the stored key, so root asks for it
 * explicitly, after a confirmation, and the server logs who saw which channel's key.
 */
export function RevealKey({ channelId }: { channelId: number }) {
  const { t } = useTranslation('channels');
  const { message } = App.useApp();
  const reveal = useMutation({ mutationFn: () => revealChannelKey(channelId), onError: (error: Error) => void message.error(error.message) });

  if (reveal.data !== undefined) {
    return (
      <Typography.Paragraph copyable code data-testid="revealed-channel-key" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {reveal.data}
      </Typography.Paragraph>
    );
  }
  return (
    <Popconfirm title={t('form.viewKeyConfirm')} okText={t('form.viewKey')} cancelText={t('drawer.cancel')} onConfirm={() => reveal.mutate()}>
      <Button size="small" loading={reveal.isPending}>
        {t('form.viewKey')}
      </Button>
    </Popconfirm>
  );
}
