import { Button, DatePicker, Flex, Input } from 'antd';
import type { Dayjs } from 'dayjs';

export interface TaskFilterDraft {
  channelId: string;
  taskId: string;
  range: [Dayjs, Dayjs];
}

interface TaskFilterBarProps {
  /** Administrators also filter by channel. */
  admin: boolean;
  draft: TaskFilterDraft;
  onChange: (draft: TaskFilterDraft) => void;
  onSubmit: () => void;
  labels: { channel: string; taskId: string; range: string; submit: string };
}

/** The filters of the drawing and task lists: channel (administrators), task ID, submit-time range. */
export function TaskFilterBar({ admin, draft, onChange, onSubmit, labels }: TaskFilterBarProps) {
  return (
    <Flex gap={8} wrap>
      {admin && (
        <Input
          allowClear
          placeholder={labels.channel}
          aria-label={labels.channel}
          value={draft.channelId}
          onChange={(event) => onChange({ ...draft, channelId: event.target.value.replace(/\D/g, '') })}
          onPressEnter={onSubmit}
          style={{ width: 120 }}
        />
      )}
      <Input
        allowClear
        placeholder={labels.taskId}
        aria-label={labels.taskId}
        value={draft.taskId}
        onChange={(event) => onChange({ ...draft, taskId: event.target.value })}
        onPressEnter={onSubmit}
        style={{ width: 200 }}
      />
      <DatePicker.RangePicker
        showTime
        allowClear={false}
        value={draft.range}
        onChange={(dates) => {
          if (dates?.[0] && dates[1]) onChange({ ...draft, range: [dates[0], dates[1]] });
        }}
        aria-label={labels.range}
      />
      <Button type="primary" onClick={onSubmit}>
        {labels.submit}
      </Button>
    </Flex>
  );
}
