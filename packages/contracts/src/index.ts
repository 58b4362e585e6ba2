export * from './envelope.ts';
export * from './roles.ts';
export * from './quota.ts';
export * from './channel-types.ts';
export * from './options.ts';
export * from './status.ts';
export * from './accounts.ts';
export * from './openai-chat.ts';
