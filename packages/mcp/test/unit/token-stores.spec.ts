import 'reflect-metadata';
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefinitionError, ToolRegistry, silentLogger } from '@toolwright/core';
import { connectMcpServers, FileTokenStore, McpTokenStoreError, MemoryTokenStore } from '@toolwright/mcp';

const TOKENS = { access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1', issuer: 'https://as.example' };

describe('token stores', () => {
  it('MemoryTokenStore keeps tokens per server and key, and a client per server; "__proto__" is just a key', () => {
    const store = new MemoryTokenStore();
    store.setTokens('notes', 'alice', TOKENS);
    store.setTokens('notes', '__proto__', { ...TOKENS, access_token: 'at-proto' });
    store.setClient('notes', { client_id: 'c-1' });
    expect(store.getTokens('notes', 'alice')).toEqual(TOKENS);
    expect(store.getTokens('notes', 'bob')).toBeUndefined();
    expect(store.getTokens('other', 'alice')).toBeUndefined();
    expect(store.getTokens('notes', '__proto__')?.access_token).toBe('at-proto');
    expect(({} as Record<string, unknown>).access_token).toBeUndefined();
    store.deleteTokens('notes', 'alice');
    store.deleteClient('notes');
    expect(store.getTokens('notes', 'alice')).toBeUndefined();
    expect(store.getClient('notes')).toBeUndefined();
  });

  it('FileTokenStore writes a 0600 file (0700 directory) that a new store reads back', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'toolwright-tokens-')), 'nested', 'tokens.json');
    const store = new FileTokenStore(path);
    await Promise.all([
      store.setTokens('notes', 'alice', TOKENS),
      store.setTokens('notes', 'bob', { ...TOKENS, access_token: 'at-bob' }),
      store.setClient('notes', { client_id: 'c-1', client_secret: 's' }),
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    const again = new FileTokenStore(path);
    expect(await again.getTokens('notes', 'alice')).toEqual(TOKENS);
    expect((await again.getTokens('notes', 'bob'))?.access_token).toBe('at-bob');
    expect(await again.getClient('notes')).toEqual({ client_id: 'c-1', client_secret: 's' });
    await again.deleteTokens('notes', 'alice');
    expect(await new FileTokenStore(path).getTokens('notes', 'alice')).toBeUndefined();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 1 });
  });

  it('FileTokenStore refuses a file others can read, and a file it did not write', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'toolwright-tokens-'));
    const open = join(directory, 'open.json');
    writeFileSync(open, JSON.stringify({ version: 1, servers: {} }));
    chmodSync(open, 0o644);
    await expect(new FileTokenStore(open).getTokens('notes', 'alice')).rejects.toThrow(
      `The token file ${open} has mode 644: others can read or change it. Fix: chmod 600 ${open}.`,
    );
    const foreign = join(directory, 'foreign.json');
    writeFileSync(foreign, JSON.stringify({ version: 1, servers: { notes: { tokens: { alice: 'x' } } } }), {
      mode: 0o600,
    });
    const refused = new FileTokenStore(foreign).getTokens('notes', 'alice');
    await expect(refused).rejects.toBeInstanceOf(McpTokenStoreError);
    await expect(refused).rejects.toThrow('has malformed tokens for "notes"');
  });
});

describe('connectMcpServers auth options', () => {
  const url = 'http://127.0.0.1:1/mcp';
  const connect = (auth: unknown) =>
    connectMcpServers(new ToolRegistry({ logger: silentLogger }), [{ name: 'notes', url }], {
      logger: silentLogger,
      auth: auth as never,
    });

  it.each([
    [{}, 'has no clientMetadata'],
    [{ clientMetadata: { client_name: 'x', redirect_uris: [] } }, 'has no redirect URL'],
    [{ clientMetadata: { client_name: 'x', redirect_uris: ['http://127.0.0.1/cb'] } }, 'has no authorize callback'],
    [{ clientMetadata: { redirect_uris: [] }, grantType: 'client_credentials' }, 'without clientInformation'],
    [{ clientMetadata: { redirect_uris: [] }, grantType: 'password' }, 'has grantType "password"'],
  ])('refuses %j before connecting', (auth, message) => {
    expect(() => connect(auth)).toThrow(DefinitionError);
    expect(() => connect(auth)).toThrow(message);
  });

  it('refuses a tokenKey that gives the connection context no key', () => {
    expect(() =>
      connect({
        clientMetadata: { redirect_uris: ['http://127.0.0.1/cb'] },
        authorize: () => Promise.resolve('http://127.0.0.1/cb'),
        tokenKey: (context: { sessionId?: string }) => context.sessionId,
      }),
    ).toThrow('tokenKey(connectionContext) returned undefined.');
  });
});
