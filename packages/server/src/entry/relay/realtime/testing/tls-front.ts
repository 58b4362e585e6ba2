import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type TLSSocket } from 'node:tls';

/** A TLS terminator in front of a local port, as a reverse proxy is in front of a deployment. */
export interface TlsFront {
  /** `https://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  /** The self-signed certificate clients must trust. */
  readonly certificate: Buffer;
  close(): Promise<void>;
}

/**
 * The official SDKs dial `wss://` whatever base URL they are given, so a test that drives them needs
 * TLS in front of the relay. The certificate is made for this run by the system's `openssl` (for
 * 127.0.0.1) and dropped with its folder; every connection is piped to `target` byte for byte.
 */
export async function startTlsFront(targetBaseUrl: string): Promise<TlsFront> {
  const folder = mkdtempSync(join(tmpdir(), 'sb-tls-'));
  const keyFile = join(folder, 'key.pem');
  const certificateFile = join(folder, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certificateFile,
    ],
    { stdio: 'ignore' },
  );
  const certificate = readFileSync(certificateFile);
  const key = readFileSync(keyFile);
  rmSync(folder, { recursive: true, force: true });
  const target = new URL(targetBaseUrl);
  const open = new Set<Socket>();
  const server = createServer({ key, cert: certificate }, (secure: TLSSocket) => {
    const plain = connect(Number(target.port), target.hostname);
    open.add(secure).add(plain);
    const drop = () => {
      secure.destroy();
      plain.destroy();
      open.delete(secure);
      open.delete(plain);
    };
    secure.on('error', drop).on('close', drop);
    plain.on('error', drop).on('close', drop);
    secure.pipe(plain).pipe(secure);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `https://127.0.0.1:${port}`,
    certificate,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
