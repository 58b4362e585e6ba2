import { describe, expect, it } from 'vitest';
import { redactedMark, redactSecrets, redactSecretsInLooseText, redactSecretsInText } from './payload-redaction.ts';

describe('payload redaction', () => {
  it('replaces credential-named fields at any depth, whatever their spelling or value type', () => {
    const body = {
      model: 'gpt-4o',
      max_tokens: 10,
      api_key: 'abc',
      headers: { Authorization: 'Bearer xyz', 'X-Api-Key': 'k1', 'x-goog-api-key': 'g1' },
      messages: [{ role: 'user', content: 'hi', metadata: { apiKey: 'a2', token: 12345, password: ['p'], secret: { nested: true } } }],
      tools: [{ key: 'k', key_id: 'stays', tokens: 3 }],
    };
    expect(redactSecrets(body)).toEqual({
      model: 'gpt-4o',
      max_tokens: 10,
      api_key: redactedMark,
      headers: { Authorization: redactedMark, 'X-Api-Key': redactedMark, 'x-goog-api-key': redactedMark },
      messages: [{ role: 'user', content: 'hi', metadata: { apiKey: redactedMark, token: redactedMark, password: redactedMark, secret: redactedMark } }],
      tools: [{ key: redactedMark, key_id: 'stays', tokens: 3 }],
    });
  });

  it('replaces sk- keys and bearer credentials inside any text, leaving the rest', () => {
    const key = `sk-${'a1B2'.repeat(12)}`;
    expect(redactSecretsInText(`my key is ${key}, use it`)).toBe(`my key is ${redactedMark}, use it`);
    expect(redactSecretsInText('sk-proj-AbCdEfGh12345678 and sk-ant-api03-xyzxyzxyz')).toBe(`${redactedMark} and ${redactedMark}`);
    expect(redactSecretsInText('header: Bearer eyJhbGciOi.J9abc')).toBe(`header: Bearer ${redactedMark}`);
    expect(redactSecretsInText('a task-list and sk-short stay')).toBe('a task-list and sk-short stay');
    expect(redactSecrets({ messages: [{ content: [{ type: 'text', text: `use ${key}` }] }] })).toEqual({
      messages: [{ content: [{ type: 'text', text: `use ${redactedMark}` }] }],
    });
  });

  it('redacts credential fields in text that is not whole JSON (a body cut at its limit)', () => {
    const cut = '{"model":"m","api_key" : "secret-value","Authorization":"Bearer abcdefghijk","content":"Hello, wor';
    expect(redactSecretsInLooseText(cut)).toBe(`{"model":"m","api_key" : "${redactedMark}","Authorization":"${redactedMark}","content":"Hello, wor`);
    // A value cut in the middle is still hidden.
    expect(redactSecretsInLooseText('{"password":"hunter2 and more')).toBe(`{"password":"${redactedMark}"`);
  });

  it('leaves numbers, booleans and null alone and keeps arrays in order', () => {
    expect(redactSecrets([1, true, null, 'x', { n: 2 }])).toEqual([1, true, null, 'x', { n: 2 }]);
  });

  describe('on bodies as clients and upstreams send them', () => {
    // Shaped like the real thing, made up here: none of these is or was a working credential.
    const pem = `-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7${'Q'.repeat(64)}\n${'a'.repeat(64)}\n-----END PRIVATE KEY-----\n`;
    const jwt = `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwiaWF0IjoxNTE2MjM5MDIyfQ.${'S'.repeat(43)}`;
    const awsId = 'AKIAIOSFODNN7EXAMPLE';
    const awsSecret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const googleKey = `AIza${'Sy0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV'}`;
    const anthropicKey = `sk-ant-api03-${'x9Y8'.repeat(20)}`;
    const serviceAccount = {
      type: 'service_account',
      project_id: 'demo-project',
      private_key_id: '0123456789abcdef0123456789abcdef01234567',
      private_key: pem,
      client_email: 'relay@demo-project.iam.gserviceaccount.com',
    };
    const leaks = (value: unknown) =>
      [pem.slice(0, 40), 'MIIEvQ', jwt.slice(0, 30), awsId, awsSecret, googleKey, anthropicKey].filter((secret) => JSON.stringify(value).includes(secret));

    it('a Vertex service account and AWS credentials under any name and case', () => {
      const body = {
        model: 'gemini-1.5-pro',
        credentials: serviceAccount,
        vertex: { Private_Key: pem, PRIVATE_KEY_ID: serviceAccount.private_key_id },
        aws: { AWS_ACCESS_KEY_ID: awsId, AWS_SECRET_ACCESS_KEY: awsSecret, SecretAccessKey: awsSecret, 'X-Amz-Security-Token': 'FwoGZXIvYXdzEBYaDH' },
        env: { OPENAI_API_KEY: 'not-shaped-like-a-key', ANTHROPIC_API_KEY: anthropicKey, DB_PASSWORD: 'hunter2', CLIENT_SECRET: 's', TOKEN: 't', Key: 'k' },
        max_tokens: 1024,
        stop_sequences: ['END'],
      };
      const redacted = redactSecrets(body) as typeof body;
      expect(leaks(redacted)).toEqual([]);
      expect(redacted).toMatchObject({
        model: 'gemini-1.5-pro',
        credentials: redactedMark,
        vertex: { Private_Key: redactedMark },
        env: { OPENAI_API_KEY: redactedMark, DB_PASSWORD: redactedMark, CLIENT_SECRET: redactedMark, TOKEN: redactedMark, Key: redactedMark },
        max_tokens: 1024,
        stop_sequences: ['END'],
      });
      expect(JSON.stringify(redacted)).not.toContain('hunter2');
    });

    it('secrets pasted into a message, found by their shape', () => {
      const pasted = [
        'Why does this fail?',
        `OPENAI_API_KEY=${anthropicKey}`,
        `aws_access_key_id = ${awsId}`,
        `maps key ${googleKey}`,
        `curl -H "Authorization: Bearer ${jwt}"`,
        `id_token=${jwt}`,
        `and the key file: ${JSON.stringify(serviceAccount)}`,
      ].join('\n');
      const body = { model: 'claude-3-5-sonnet', messages: [{ role: 'user', content: [{ type: 'text', text: pasted }] }] };
      const redacted = redactSecrets(body);
      expect(leaks(redacted)).toEqual([]);
      expect(JSON.stringify(redacted)).toContain('Why does this fail?');
    });

    it('an upstream error echoing the request, and a body cut at its size limit inside a private key', () => {
      const upstreamError = `{"error":{"code":400,"message":"API key not valid","details":[{"metadata":{"x-goog-api-key":"${googleKey}"}}]},"echo":"${jwt}"}`;
      expect(leaks(redactSecretsInLooseText(upstreamError))).toEqual([]);
      const cut = JSON.stringify({ model: 'm', credentials_json: JSON.stringify(serviceAccount) }).slice(0, 200);
      expect(cut).toContain('BEGIN PRIVATE KEY');
      const redacted = redactSecretsInLooseText(cut);
      expect(redacted).not.toContain('MIIEvQ');
      expect(redacted).toContain('"model":"m"');
    });
  });
});
