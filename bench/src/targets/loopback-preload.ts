import net from 'node:net';

/**
 * Preloaded into the peer gateway (node --import): its server binds every interface by default, and the
 * bench must stay on 127.0.0.1, so every listen() on a TCP port is forced onto the loopback address.
 */
const originalListen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(this: net.Server, ...args: unknown[]) {
  const [first, second] = args;
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    if (typeof second === 'string') args[1] = '127.0.0.1';
    else args.splice(1, second === undefined ? 1 : 0, '127.0.0.1');
  } else if (first && typeof first === 'object' && 'port' in first) {
    args[0] = { ...first, host: '127.0.0.1' };
  }
  return (originalListen as (...values: unknown[]) => net.Server).apply(this, args);
} as typeof originalListen;
