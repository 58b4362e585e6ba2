import { describe, expect, it } from 'vitest';
import { summariseAllocations, type HeapProfileNode } from './allocation-summary.ts';

const server = 'file:///repo/packages/server/src';
const modules = 'file:///repo/node_modules';

const node = (functionName: string, url: string, selfSize: number, children: HeapProfileNode[] = []): HeapProfileNode => ({
  callFrame: { functionName, url, lineNumber: 9 },
  selfSize,
  children,
});

/**
 * Ten requests' allocations: Fastify's route builds its objects and calls the relay, which allocates
 * itself and through Node (JSON.parse, no URL); undici reads the answer; Node parses the HTTP request.
 */
const head = node('(root)', '', 0, [
  node('routeHandler', `${modules}/fastify/lib/route.js`, 3000, [
    node('relayRequest', `${server}/entry/relay/pipeline/relay-pipeline.ts`, 4000, [
      node('parse', '', 1000),
      node('settle', `${server}/domain/billing/quota-ledger.ts`, 500),
    ]),
  ]),
  node('onBody', `${modules}/undici/lib/dispatcher/client-h1.js`, 2000),
  node('parserOnIncoming', 'node:_http_server', 1500),
]);

describe('summariseAllocations', () => {
  it('gives bytes per request, by owner and by Switchboard function, Node frames counting for the code above them', () => {
    const summary = summariseAllocations(head, 10);
    expect(summary.bytesPerRequest).toBe(1200);
    expect(summary.byOwner).toEqual([
      { name: 'Switchboard', where: '', bytesPerRequest: 550 },
      { name: 'Fastify', where: '', bytesPerRequest: 300 },
      { name: 'undici', where: '', bytesPerRequest: 200 },
      { name: 'Node (no package above)', where: '', bytesPerRequest: 150 },
    ]);
    expect(summary.switchboardFunctions).toEqual([
      { name: 'relayRequest', where: 'packages/server/src/entry/relay/pipeline/relay-pipeline.ts:10', bytesPerRequest: 500 },
      { name: 'settle', where: 'packages/server/src/domain/billing/quota-ledger.ts:10', bytesPerRequest: 50 },
    ]);
  });

  it('keeps only the top functions asked for', () => {
    expect(summariseAllocations(head, 10, 1).switchboardFunctions.map((entry) => entry.name)).toEqual(['relayRequest']);
  });
});
