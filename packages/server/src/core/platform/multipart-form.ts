/**
 * The few `multipart/form-data` operations the relay needs, done on the body's bytes without a
 * multipart library: the pipeline reads the `model` and `prompt` fields, and a provider swaps the
 * `model` field when a channel maps it. Files are never decoded or copied apart from slicing, so they
 * reach the upstream byte for byte.
 * @see https://www.rfc-editor.org/rfc/rfc7578
 */
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

/** Where a field's value lies in the form, or where the first part starts when the form lacks it. */
type FieldSearch = { found: true; valueStart: number; valueEnd: number } | { found: false; firstPart: number };

/** Walks the parts: each follows "--boundary\r\n" and ends where "\r\n--boundary" begins. */
function findField(raw: Buffer, boundary: string, field: string): FieldSearch | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  const first = raw.indexOf(delimiter);
  if (first < 0) return undefined;
  const nextDelimiter = Buffer.concat([crlf, delimiter]);
  let partStart = first + delimiter.length;
  while (raw.subarray(partStart, partStart + 2).equals(crlf)) {
    const headersStart = partStart + 2;
    const valueStart = raw.indexOf(headerEnd, headersStart);
    const partEnd = raw.indexOf(nextDelimiter, headersStart);
    if (valueStart < 0 || partEnd < 0) return undefined;
    if (valueStart < partEnd && namesField(raw.toString('latin1', headersStart, valueStart), field)) {
      return { found: true, valueStart: valueStart + headerEnd.length, valueEnd: partEnd };
    }
    partStart = partEnd + nextDelimiter.length;
  }
  return { found: false, firstPart: first };
}

/** A text field's value (UTF-8, trimmed), or '' when the form has no such field or is malformed. */
export function multipartField(raw: Buffer, contentType: string, field: string): string {
  const boundary = multipartBoundary(contentType);
  const search = boundary ? findField(raw, boundary, field) : undefined;
  return search?.found ? raw.toString('utf8', search.valueStart, search.valueEnd).trim() : '';
}

/**
 * The form with one text field set to `value`, every other byte as the caller sent it: the value is
 * swapped in place, or a new part is put before the first one when the caller sent none. The boundary
 * stays, so the content type does too. Undefined when the body is not a well-formed multipart form.
 */
export function withMultipartField(raw: Buffer, contentType: string, field: string, value: string): Buffer | undefined {
  const boundary = multipartBoundary(contentType);
  const search = boundary ? findField(raw, boundary, field) : undefined;
  if (!search) return undefined;
  if (search.found) return Buffer.concat([raw.subarray(0, search.valueStart), Buffer.from(value, 'utf8'), raw.subarray(search.valueEnd)]);
  const added = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`, 'utf8');
  return Buffer.concat([raw.subarray(0, search.firstPart), added, raw.subarray(search.firstPart)]);
}
