import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  from: string;
  to: string[];
  /** Headers and body, with quoted-printable and base64 parts decoded to text. */
  text: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = Buffer.from(
    body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_whole, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

/** Decodes each MIME part's body by its Content-Transfer-Encoding (enough for nodemailer's output). */
function readableText(raw: string): string {
  return raw
    .split(/\r?\n(?=--)/)
    .map((part) => {
      const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
      const body = rest.join('\n\n');
      if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) return `${head}\n\n${decodeQuotedPrintable(body)}`;
      if (/content-transfer-encoding:\s*base64/i.test(head)) return `${head}\n\n${Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')}`;
      return part;
    })
    .join('\n');
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps what it receives. nodemailer's
 * send resolves only after the server accepted the message, so a test reads the mail right after the
 * API call returns, without waiting.
 */
export async function startSmtpCatcher(): Promise<{
  port: number;
  mails: CaughtMail[];
  lastTo(address: string): CaughtMail | undefined;
  close(): Promise<void>;
}> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    disableReverseLookup: true,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'test' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          text: readableText(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    mails,
    lastTo: (address) => mails.filter((mail) => mail.to.includes(address)).at(-1),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
