import dayjs from 'dayjs';
import type { LogFilters } from '../api/log-filters.ts';

/** The last three days up to an hour from now, every type, no other filter. */
export function defaultLogFilters(): LogFilters {
  return {
    type: 0,
    start_timestamp: dayjs().subtract(3, 'day').startOf('day').unix(),
    end_timestamp: dayjs().add(1, 'hour').unix(),
    token_name: '',
    model_name: '',
    group: '',
    username: '',
    channel: '',
  };
}
