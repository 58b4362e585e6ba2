import { DEFAULT_QUOTA_PER_UNIT } from '@switchboard/contracts';
import { Button, Flex, InputNumber, Typography } from 'antd';
import { useQuotaFormatter, useStatusValue } from '../lib/system-status.ts';

/** The quota presets for tokens and codes: 1, 10, 50, 100, 500 and 1000 dollars. */
export const quotaPresetDollars = [1, 10, 50, 100, 500, 1000] as const;

interface QuotaInputProps {
  value?: number;
  onChange?: (value: number) => void;
  disabled?: boolean;
  id?: string;
}

/**
 * A quota amount in raw units (what the server stores), with one-click dollar presets and the amount
 * in the display currency beside it, so nobody has to multiply by 500,000 in their head.
 */
export function QuotaInput({ value, onChange, disabled, id }: QuotaInputProps) {
  const status = useStatusValue();
  const formatQuota = useQuotaFormatter();
  const quotaPerUnit = status?.quota_per_unit || DEFAULT_QUOTA_PER_UNIT;
  return (
    <Flex vertical gap={8}>
      <Flex gap={8} align="center" wrap>
        <InputNumber
          id={id}
          min={0}
          step={quotaPerUnit}
          precision={0}
          value={value}
          disabled={disabled}
          onChange={(next) => onChange?.(Number(next ?? 0))}
          style={{ width: 200 }}
        />
        <Typography.Text type="secondary">≈ {formatQuota(value ?? 0)}</Typography.Text>
      </Flex>
      <Flex gap={6} wrap>
        {quotaPresetDollars.map((dollars) => (
          <Button
            key={dollars}
            size="small"
            disabled={disabled}
            type={value === dollars * quotaPerUnit ? 'primary' : 'default'}
            onClick={() => onChange?.(dollars * quotaPerUnit)}
          >
            ${dollars}
          </Button>
        ))}
      </Flex>
    </Flex>
  );
}
