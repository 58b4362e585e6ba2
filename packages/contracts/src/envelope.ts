/** Every console API answer: `{ success, message, data }` (the classic new-api envelope). */
export interface Envelope<T> {
  success: boolean;
  message: string;
  data?: T;
}

/** The log lists page from 1 and answer this shape (the user, token, channel and code lists answer arrays). */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}
