import { describe, expect, it } from 'vitest';
import { hideSecrets } from './secret-variables.ts';

describe('hideSecrets', () => {
  it('hides the values and DSN passwords of secret variables, whatever wrote the message', () => {
    const env = {
      SQL_DSN: 'root:p@ss-word@tcp(db:3306)/app',
      REDIS_CONN_STRING: 'redis://:s%40cret-redis@cache:6379',
      SESSION_SECRET: 'session-value',
      PORT: '3000',
    };
    const message = 'failed: root:p@ss-word@tcp(db:3306)/app, password p@ss-word, redis s@cret-redis and s%40cret-redis, session-value on 3000';
    const hidden = hideSecrets(message, env);
    for (const secret of ['p@ss-word', 's@cret-redis', 's%40cret-redis', 'session-value']) expect(hidden).not.toContain(secret);
    expect(hidden).toContain('3000');
  });

  it('masks credentials in any URL, short passwords included', () => {
    expect(hideSecrets('cannot reach postgres://:pw@127.0.0.1:1/x or mysql://u:x@h/d', {})).toBe(
      'cannot reach postgres://:***@127.0.0.1:1/x or mysql://u:***@h/d',
    );
    expect(hideSecrets('dsn u:pw@tcp(h:3306)/d', {})).toBe('dsn u:***@tcp(h:3306)/d');
  });
});
