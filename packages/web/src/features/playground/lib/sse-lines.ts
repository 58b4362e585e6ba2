/**
 * Splits a server-sent-event byte stream into the payloads of its `data:` lines, keeping a partial line
 * across chunks. `[DONE]` is passed through for the caller to stop on.
 */
export function createSseParser(onData: (payload: string) => void): (chunk: string) => void {
  let buffer = '';
  return (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line.startsWith('data:')) onData(line.slice(5).trim());
      newline = buffer.indexOf('\n');
    }
  };
}
