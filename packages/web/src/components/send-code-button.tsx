import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The resend cooldown for e-mailed codes. */
export const sendCodeCooldownSeconds = 30;

interface SendCodeButtonProps {
  /** Sends the code; resolves true when it was sent, which starts the countdown. */
  onSend: () => Promise<boolean>;
  disabled?: boolean;
  label?: string;
}

/** A 'send code' button that counts down 30 s after a successful send, then resets. */
export function SendCodeButton({ onSend, disabled, label }: SendCodeButtonProps) {
  const { t } = useTranslation();
  const [remaining, setRemaining] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (remaining <= 0) return;
    const timer = setTimeout(() => setRemaining((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [remaining]);

  const send = async () => {
    setSending(true);
    try {
      if (await onSend()) setRemaining(sendCodeCooldownSeconds);
    } finally {
      setSending(false);
    }
  };

  return (
    <Button onClick={() => void send()} loading={sending} disabled={disabled || remaining > 0} data-testid="send-code">
      {remaining > 0 ? t('sendCode.resendIn', { seconds: remaining }) : (label ?? t('sendCode.send'))}
    </Button>
  );
}
