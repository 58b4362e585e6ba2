/** Every console API answer: `{ success, message, data }` (the classic new-api envelope). */
export interface Envelope<T> {
  success: boolean;
  message: string;
  data?: T;
  /** On a few failures only: a stable name the console acts on (`turnstile_required`: show the human check). */
  code?: string;
}

/** The log lists page from 1 and answer this shape (the user, token, channel and code lists answer arrays). */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}
