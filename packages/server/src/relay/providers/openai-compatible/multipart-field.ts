const crlf = Buffer.from('\r\n');
const headerEnd = Buffer.from('\r\n\r\n');

/** The boundary of a `multipart/form-data` content type, or undefined for any other type. */
export function multipartBoundary(contentType: string): string | undefined {
  if (!/^\s*multipart\/form-data/i.test(contentType)) return undefined;
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** Whether a part's headers name this field (`name="model"`, not `filename="model"`). */
function namesField(headers: string, field: string): boolean {
  return new RegExp(`(?:^|;)\\s*name="${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s*(?:;|$)`, 'im').test(headers);
}

/**
 * The form with one text field set to `value`, every other byte as the caller sent it.
 *
 * Model mapping must reach multipart requests (audio transcriptions and translations, image edits
 * and variations) too, and re-encoding the whole form would decode and copy the uploaded files.
 * Instead the form is walked on its bytes: the field's value is swapped in place (or a new part is
 * put before the first one when the caller sent none), and the files are sliced around, never
 * decoded, so they reach the upstream byte for byte. The boundary stays, so the content type does too.
 * Returns undefined when the body is not a well-formed multipart form.
 * @see https://www.rfc-editor.org/rfc/rfc7578
 */
export function withMultipartField(raw: Buffer, contentType: string, field: string, value: string): Buffer | undefined {
  const boundary = multipartBoundary(contentType);
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  const first = raw.indexOf(delimiter);
  if (first < 0) return undefined;
  // Parts follow "--boundary\r\n" and end where "\r\n--boundary" begins.
  const nextDelimiter = Buffer.concat([crlf, delimiter]);
  let partStart = first + delimiter.length;
  while (raw.subarray(partStart, partStart + 2).equals(crlf)) {
    const headersStart = partStart + 2;
    const valueStart = raw.indexOf(headerEnd, headersStart);
    const partEnd = raw.indexOf(nextDelimiter, headersStart);
    if (valueStart < 0 || partEnd < 0) return undefined;
    if (valueStart < partEnd && namesField(raw.toString('latin1', headersStart, valueStart), field)) {
      return Buffer.concat([raw.subarray(0, valueStart + headerEnd.length), Buffer.from(value, 'utf8'), raw.subarray(partEnd)]);
    }
    partStart = partEnd + nextDelimiter.length;
  }
  const added = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`, 'utf8');
  return Buffer.concat([raw.subarray(0, first), added, raw.subarray(first)]);
}
