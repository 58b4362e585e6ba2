import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy in front of a server that a test can cut (as a network or a database going away) and restore. */
export interface CuttableProxy {
  readonly port: number;
  /** Destroys every connection through it and refuses new ones until `restore`. */
  cut(): Promise<void>;
  /** Connections refused while cut, so far. */
  readonly refused: number;
  restore(): Promise<void>;
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** Forwards 127.0.0.1:<its port> to `host:port`, byte for byte. */
export async function startCuttableProxy(host: string, port: number): Promise<CuttableProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  let cutOff = false;
  let refused = 0;
  const server = createServer((client) => {
    // Cut: the connection is dropped at once (the listener stays, so the port cannot be taken meanwhile).
    if (cutOff) {
      refused += 1;
      client.on('error', () => undefined);
      client.destroy();
      return;
    }
    const upstream = connect(port, host);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  const ownPort = await listen(server, 0);
  return {
    port: ownPort,
    get refused() {
      return refused;
    },
    async cut() {
      cutOff = true;
      for (const socket of sockets) socket.destroy();
    },
    async restore() {
      cutOff = false;
    },
    async close() {
      cutOff = true;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
