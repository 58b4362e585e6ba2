/**
 * Google's default framing of `streamGenerateContent` (no `alt=sse`): one JSON array written as it
 * grows, each element one GenerateContentResponse: `[` before the first, `,\r\n` between two, `]` at
 * the end (the bytes the converted Gemini writer uses too). A native stream is read from the upstream
 * as server-sent events and each event's data becomes one element, so the caller's array holds the
 * vendor's objects as written and is valid JSON whichever way the stream ends.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export class JsonArrayFraming {
  private elements = 0;

  /** One element (a JSON text) → the bytes that add it to the array. */
  element(json: string): string {
    this.elements += 1;
    return this.elements === 1 ? `[${json}` : `,\r\n${json}`;
  }

  /** The bytes of the last `element` were not sent (a sensitive word stopped its event). */
  withdrawLast(): void {
    this.elements -= 1;
  }

  /** The bytes that close the array, after `lastElement` (the vendor's error object) when one is given. */
  close(lastElement?: string): string {
    const tail = lastElement === undefined ? '' : this.element(lastElement);
    return this.elements > 0 ? `${tail}]` : '[]';
  }
}
