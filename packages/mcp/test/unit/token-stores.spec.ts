import 'reflect-metadata';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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

describe('FileTokenStore refuses what another user could have planted or could read', () => {
  const me = process.getuid?.() ?? 0;
  const fresh = () => mkdtempSync(join(tmpdir(), 'toolwright-tokens-'));
  const tokenFile = (directory: string, access = 'at-1') => {
    const path = join(directory, 'tokens.json');
    writeFileSync(
      path,
      JSON.stringify({ version: 1, servers: { notes: { tokens: { alice: { ...TOKENS, access_token: access } } } } }),
      { mode: 0o600 },
    );
    return path;
  };

  it('a file owned by another user is refused, whatever its mode (the expected owner injected)', async () => {
    const path = tokenFile(fresh(), 'planted-token');
    const refused = new FileTokenStore(path, { expectedOwner: me + 1 }).getTokens('notes', 'alice');
    await expect(refused).rejects.toBeInstanceOf(McpTokenStoreError);
    await expect(refused).rejects.toThrow(`belongs to user ${me}, not to this user (${me + 1})`);
    // The same file, expected to be this user's, is read.
    expect((await new FileTokenStore(path, { expectedOwner: me }).getTokens('notes', 'alice'))?.access_token).toBe(
      'planted-token',
    );
  });

  it('a write into a directory owned by another user is refused before anything is created', async () => {
    const directory = fresh();
    const store = new FileTokenStore(join(directory, 'tokens.json'), { expectedOwner: me + 1 });
    await expect(store.setTokens('notes', 'alice', TOKENS)).rejects.toThrow(
      `The directory ${directory} of the token file`,
    );
    expect(readdirSync(directory)).toEqual([]);
  });

  it('a directory others can write to is refused (read and write)', async () => {
    const directory = fresh();
    const path = tokenFile(directory);
    chmodSync(directory, 0o777);
    await expect(new FileTokenStore(path).getTokens('notes', 'alice')).rejects.toThrow(
      `which others can write to (mode 777). Fix: chmod 700 ${directory}.`,
    );
    await expect(new FileTokenStore(join(directory, 'other.json')).setTokens('notes', 'a', TOKENS)).rejects.toThrow(
      'which others can write to',
    );
    chmodSync(directory, 0o720);
    await expect(new FileTokenStore(path).getTokens('notes', 'alice')).rejects.toThrow('(mode 720)');
  });

  it('a symbolic link at the token path is not followed, for reading or writing', async () => {
    const directory = fresh();
    const victim = tokenFile(fresh(), 'victim-token');
    const path = join(directory, 'tokens.json');
    symlinkSync(victim, path);
    await expect(new FileTokenStore(path).getTokens('notes', 'alice')).rejects.toThrow('is a symbolic link, refused');
    const before = readFileSync(victim, 'utf8');
    await expect(new FileTokenStore(path).setTokens('notes', 'bob', TOKENS)).rejects.toThrow('symbolic link');
    expect(readFileSync(victim, 'utf8')).toBe(before);
  });

  it('the temporary file is unpredictable and created exclusively: a link planted at the old name is never written through', async () => {
    const directory = fresh();
    const path = join(directory, 'tokens.json');
    const victim = join(fresh(), 'victim.txt');
    writeFileSync(victim, 'untouched', { mode: 0o600 });
    // The name the store used to write to (`<path>.<pid>.tmp`), planted as a link to another file.
    symlinkSync(victim, `${path}.${process.pid}.tmp`);
    const store = new FileTokenStore(path);
    await store.setTokens('notes', 'alice', TOKENS);
    await store.setTokens('notes', 'bob', TOKENS);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // Nothing is left behind but the token file and the planted link.
    expect(readdirSync(directory).sort()).toEqual(['tokens.json', `tokens.json.${process.pid}.tmp`]);
    expect((await new FileTokenStore(path).getTokens('notes', 'bob'))?.access_token).toBe('at-1');
  });

  it.each([
    [
      'cut off after the token',
      (secret: string) => `{"version":1,"servers":{"notes":{"tokens":{"a":{"access_token":"${secret}","tok`,
    ],
    // JSON.parse's own message quotes the text around this fault: `Unexpected token 'S', ..."s_token": SECRET-acc"...`.
    [
      'the token unquoted by a hand edit',
      (secret: string) =>
        `{"version":1,"servers":{"notes":{"tokens":{"a":{"access_token": ${secret}, "token_type":"Bearer"}}}}}`,
    ],
  ])(
    'a corrupt token file (%s) fails without quoting any of it: not in the message, the cause or the serialized error',
    async (_kind, corrupt) => {
      const directory = fresh();
      const path = join(directory, 'tokens.json');
      const secret = 'SECRET-access-token-4f9c2e';
      writeFileSync(path, corrupt(secret), { mode: 0o600 });
      const error = await new FileTokenStore(path).getTokens('notes', 'alice').then(
        () => undefined,
        (failure: unknown) => failure as McpTokenStoreError,
      );
      expect(error).toBeInstanceOf(McpTokenStoreError);
      expect(error!.message).toBe(
        `The token file ${path} is not JSON. Fix: delete it (the servers will ask to authorize again).`,
      );
      let text = `${error!.message} ${String(error!.stack)} ${JSON.stringify(error)}`;
      for (let cause: unknown = error!.cause; cause !== undefined; cause = (cause as Error).cause)
        text += ` ${(cause as Error).message} ${(cause as Error).stack ?? ''}`;
      expect(text).not.toContain('SECRET');
      expect(text).not.toContain('4f9c2e');
      expect(existsSync(path)).toBe(true);
    },
  );

  it('a token file created in a new directory gets a 0700 directory of this user', async () => {
    const path = join(fresh(), 'a', 'b', 'tokens.json');
    await new FileTokenStore(path).setTokens('notes', 'alice', TOKENS);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    expect(statSync(path).uid).toBe(me);
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
