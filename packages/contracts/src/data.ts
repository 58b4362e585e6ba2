/** One hourly bucket of the data dashboard (`GET /api/data/`, `/api/data/self/`): one user's use of one model in that hour. */
export interface QuotaDataRow {
  user_id: number;
  username: string;
  model_name: string;
  /** Start of the hour, Unix seconds. */
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
}

/** `GET /api/data/users`: one user's hour, all models together. */
export type QuotaDataUserRow = Omit<QuotaDataRow, 'user_id' | 'model_name'>;
