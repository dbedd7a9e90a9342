import 'reflect-metadata';
import {
  ArrayOf,
  Command,
  DefinitionError,
  FromContext,
  ToolParam,
  ToolRegistry,
  silentLogger,
} from '@toolwright/core';
import {
  buildJobData,
  contextForJob,
  jobDataFor,
  jobProblem,
  matchesValuesDigest,
  ownerOf,
  restoreSensitive,
  SealingKeyMissingError,
  type ToolJobData,
} from '../../src/job-data';
import { jobIdForCall, jobIdForLog } from '../../src/job-ids';
import { queuePrefix, requiredKeyRing } from '../../src/options';
import { jobOptionsFor } from '../../src/queued-tool-executor';
import { open, seal, sealBinding } from '../../src/sealing';
import { signingKeyRing } from '../../src/signing';

class Credential {
  @ToolParam() service!: string;
  @ToolParam({ sensitive: true }) token!: string;
}
class ConnectParams {
  @ToolParam() label!: string;
  @ToolParam({ sensitive: true }) password!: string;
  @ArrayOf(() => Credential) credentials!: Credential[];
  @FromContext('session_id') sessionId?: string;
}
@Command({
  name: 'connect',
  description: 'Connect',
  params: ConnectParams,
  queue: { attempts: 3, backoff: { type: 'fixed', delayMs: 250 }, priority: 5 },
})
class Connect {
  execute() {
    return 'ok';
  }
}

const definition = new ToolRegistry({ logger: silentLogger }).register(Connect);
const params = {
  label: 'db',
  password: 'p@ss',
  credentials: [
    { service: 'a', token: 't-1' },
    { service: 'b', token: 't-2' },
  ],
  sessionId: 's1',
};
const key = 'passphrase';

describe('job data', () => {
  it('leaves out context fields and seals every sensitive value at its exact path', () => {
    const draft = buildJobData(
      definition,
      'c1',
      params,
      params,
      [{ path: '', rule: 'double-encoded-json', from: '"{...}"', to: {} }],
      { sessionId: 's1', jobId: 'forged-by-nobody' },
      key,
      60_000,
    );
    const data = jobDataFor(draft, 'c1', {}, key, signingKeyRing({ sealingKey: key }));
    expect(data.params).toEqual({
      label: 'db',
      password: '[redacted]',
      credentials: [
        { service: 'a', token: '[redacted]' },
        { service: 'b', token: '[redacted]' },
      ],
    });
    expect(data.context).toEqual({ sessionId: 's1' });
    expect(JSON.stringify(data)).not.toMatch(/p@ss|t-1|t-2/);
    expect(data.transformations).toEqual([
      { path: '', rule: 'double-encoded-json', from: '[arguments text omitted]', to: '[arguments text omitted]' },
    ]);
    expect(data.expiresAt - data.enqueuedAt).toBe(60_000);
    expect(() => open(data.sealed!, key, sealBinding('c2', 'connect'))).toThrow();
    expect(() => open(data.sealed!, key, sealBinding('c1', 'other_tool'))).toThrow();
    const secrets = JSON.parse(open(data.sealed!, key, sealBinding('c1', 'connect'))) as Array<
      [Array<string | number>, unknown]
    >;
    expect(restoreSensitive(structuredClone(data.params), secrets)).toEqual({
      label: 'db',
      password: 'p@ss',
      credentials: [
        { service: 'a', token: 't-1' },
        { service: 'b', token: 't-2' },
      ],
    });
  });

  it('refuses to build job data with sensitive values and no key', () => {
    expect(() => buildJobData(definition, 'c1', params, params, [], {}, undefined, 60_000)).toThrow(
      SealingKeyMissingError,
    );
  });

  it('restores only where the job holds the redaction marker', () => {
    const target = { password: 'model-sent text', nested: { token: '[redacted]' } };
    restoreSensitive(target, [
      [['password'], 'secret'],
      [['nested', 'token'], 't'],
      [['__proto__', 'polluted'], true],
    ]);
    expect(target).toEqual({ password: 'model-sent text', nested: { token: 't' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives the worker the job id as jobId, never a queued one', () => {
    const context = contextForJob(
      { sessionId: 's1', flowStepId: 'f1', now: '2026-11-23T10:00:00.000Z' },
      'job-9',
      undefined,
    );
    expect(context).toEqual({
      sessionId: 's1',
      flowStepId: 'f1',
      jobId: 'job-9',
      now: new Date('2026-11-23T10:00:00.000Z'),
    });
  });
});

describe('job identity, owner and values', () => {
  it('the fingerprint covers every trusted input but approval; the owner leaves out now and approval', () => {
    const draft = (context: Parameters<typeof buildJobData>[5]) =>
      buildJobData(definition, 'call_0', params, params, [], context, key, 60_000).data;
    const base = draft({ handlerConfig: { user: 'alice' } });
    for (const other of [
      { handlerConfig: { user: 'bob' } },
      { handlerConfig: { user: 'alice' }, persona: { name: 'p' } },
      { handlerConfig: { user: 'alice' }, sessionId: 's' },
      { handlerConfig: { user: 'alice' }, timeZone: 'Europe/Paris' },
    ])
      expect(draft(other).fingerprint).not.toBe(base.fingerprint);
    const approved = { id: 'a', approved: true, decidedAt: '2026-01-01T00:00:00.000Z' };
    expect(draft({ handlerConfig: { user: 'alice' }, approval: approved }).fingerprint).toBe(base.fingerprint);
    expect(base.owner).toBe(ownerOf({ handlerConfig: { user: 'alice' }, now: new Date() }, key));
    expect(base.owner).not.toBe(ownerOf({ handlerConfig: { user: 'bob' } }, key));
    expect(base.owner).not.toBe(ownerOf({ handlerConfig: { user: 'alice' } }, 'another key'));
  });

  it('values: keyed when they hold a sensitive value (the worker then has the key), plain otherwise', () => {
    const withSecrets = buildJobData(definition, 'c1', params, params, [], {}, key, 60_000).data.values!;
    const { sessionId: _sessionId, ...plain } = params;
    expect(withSecrets.startsWith('k:')).toBe(true);
    expect(matchesValuesDigest(plain, withSecrets, key)).toBe(true);
    expect(matchesValuesDigest(plain, withSecrets, undefined)).toBe(false);
    expect(matchesValuesDigest({ ...plain, label: 'other' }, withSecrets, key)).toBe(false);
    const note = new ToolRegistry({ logger: silentLogger }).registerJsonSchemaTool(
      { name: 'note', description: 'n', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
      () => 'ok',
    );
    const unkeyed = buildJobData(note, 'c2', { text: 'x' }, { text: 'x' }, [], {}, key, 60_000).data.values!;
    expect(unkeyed.startsWith('s:')).toBe(true);
    expect(matchesValuesDigest({ text: 'x' }, unkeyed, undefined)).toBe(true);
    expect(matchesValuesDigest({ text: 'y' }, unkeyed, key)).toBe(false);
  });
});

describe('sealing', () => {
  it('round-trips, and fails on tampering, another key or other associated data', () => {
    const binding = sealBinding('job-1', 'pay');
    const sealed = seal('{"a":1}', 'k1', binding);
    expect(open(sealed, 'k1', binding)).toBe('{"a":1}');
    expect(() => open(sealed, 'k2', binding)).toThrow();
    expect(() => open(sealed, 'k1', sealBinding('job-2', 'pay'))).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('{"a":2}').toString('base64url');
    expect(() => open(parts.join('.'), 'k1', binding)).toThrow();
    expect(() => seal('x', new Uint8Array(16), binding)).toThrow('32 bytes');
  });
});

describe('signed envelopes', () => {
  const ring = signingKeyRing({ sealingKey: key })!;
  const options = { attempts: 3, backoff: { type: 'fixed', delay: 250 }, priority: 5 };
  const draft = buildJobData(
    definition,
    'c1',
    params,
    params,
    [],
    { sessionId: 's1', persona: { name: 'p' } },
    key,
    60_000,
  );
  const data = jobDataFor(draft, 'c1', options, key, ring);
  const job = (edit: Partial<{ id: string; name: string; data: unknown; opts: object }> = {}) => ({
    id: 'c1',
    name: 'connect',
    data: JSON.parse(JSON.stringify(data)) as unknown,
    opts: options,
    ...edit,
  });
  const edited = (change: (copy: Record<string, any>) => void) => {
    const copy = JSON.parse(JSON.stringify(data)) as Record<string, any>;
    change(copy);
    return job({ data: copy });
  };
  const now = data.enqueuedAt + 1;

  it('verify as stored, whatever the key order Redis gives back', () => {
    const reordered = Object.fromEntries(Object.entries(JSON.parse(JSON.stringify(data)) as object).reverse());
    expect(jobProblem(job(), ring, false, now)).toBeUndefined();
    expect(jobProblem(job({ data: reordered }), ring, false, now)).toBeUndefined();
    expect(jobProblem(job({ opts: { ...options, backoff: { delay: 250, type: 'fixed' } } }), ring, false, now)).toBe(
      undefined,
    );
    expect(jobProblem(job({ data: { ...data, result: { ok: false } } }), ring, false, now)).toBeUndefined();
  });

  it.each<[string, (copy: Record<string, any>) => void]>([
    ['tool', (copy) => (copy.tool = 'wipe')],
    ['params', (copy) => (copy.params.label = 'other')],
    ['session', (copy) => (copy.context.sessionId = 'victim')],
    ['persona', (copy) => (copy.context.persona = { name: 'p', permissions: ['admin'] })],
    ['handler config', (copy) => (copy.context.handlerConfig = { admin: true })],
    ['sealed payload removed', (copy) => delete copy.sealed],
    ['expiry', (copy) => (copy.expiresAt += 1)],
    ['call id', (copy) => (copy.callId = 'c9')],
    ['a field added', (copy) => (copy.extra = 1)],
  ])('refuse an edited %s', (_what, change) => {
    expect(jobProblem(edited(change), ring, false, now)).toBe('bad-signature');
  });

  it('refuse another job id or name, other options, no signature, an unknown key, expiry and junk', () => {
    expect(jobProblem(job({ id: 'c2' }), ring, false, now)).toBe('bad-signature');
    expect(jobProblem(job({ name: 'wipe' }), ring, false, now)).toBe('bad-signature');
    expect(jobProblem(job({ opts: { ...options, attempts: 50 } }), ring, false, now)).toBe('bad-signature');
    expect(jobProblem(job({ opts: { ...options, priority: 1 } }), ring, false, now)).toBe('bad-signature');
    expect(
      jobProblem(
        edited((copy) => delete copy.signature),
        ring,
        false,
        now,
      ),
    ).toBe('unsigned');
    expect(
      jobProblem(
        edited((copy) => (copy.signature.keyId = 'k-old')),
        ring,
        false,
        now,
      ),
    ).toBe('unknown-key');
    expect(jobProblem(job(), ring, false, data.expiresAt + 1)).toBe('expired');
    expect(jobProblem(job({ data: 'junk' }), ring, false, now)).toBe('malformed');
    expect(jobProblem(job(), undefined, false, now)).toBe('unknown-key');
    expect(
      jobProblem(
        edited((copy) => delete copy.signature),
        ring,
        true,
        now,
      ),
    ).toBeUndefined();
  });

  it('rotate: a job signed with a previous key still verifies; a job signed with a dropped key does not', () => {
    const old = { id: 'old', secret: 'old signing key' };
    const signedWithOld = jobDataFor(draft, 'c1', options, key, signingKeyRing({ signingKey: old }));
    const rotated = signingKeyRing({ signingKey: { id: 'new', secret: 'new key' }, previousSigningKeys: [old] })!;
    expect(jobProblem(job({ data: signedWithOld }), rotated, false, now)).toBeUndefined();
    expect(jobDataFor(draft, 'c1', options, key, rotated).signature!.keyId).toBe('new');
    expect(jobProblem(job({ data: signedWithOld }), signingKeyRing({ signingKey: 'new key' }), false, now)).toBe(
      'unknown-key',
    );
  });

  it('derive the signing key from the sealing key unless one is given, and need one or an explicit opt-out', () => {
    const derived = signingKeyRing({ sealingKey: key })!;
    expect(derived.signing.id).toMatch(/^k-[0-9a-f]{16}$/);
    expect(derived.signing.secret.equals(Buffer.from(signingKeyRing({ sealingKey: key })!.signing.secret))).toBe(true);
    expect(signingKeyRing({ sealingKey: key, signingKey: 'separate' })!.signing.id).not.toBe(derived.signing.id);
    expect(() => requiredKeyRing({ connection: {} }, 'QueuedToolExecutor')).toThrow(DefinitionError);
    expect(() => requiredKeyRing({ connection: {} }, 'QueuedToolExecutor')).toThrow(/allowUnauthenticatedJobs/);
    expect(requiredKeyRing({ connection: {}, allowUnauthenticatedJobs: true }, 'QueuedToolExecutor')).toBeUndefined();
    expect(() => signingKeyRing({ signingKey: { id: 'bad id!', secret: 'x' } })).toThrow(DefinitionError);
    expect(() =>
      signingKeyRing({ signingKey: { id: 'a', secret: 'x' }, previousSigningKeys: [{ id: 'a', secret: 'y' }] }),
    ).toThrow(DefinitionError);
  });

  it('keep the signed data as Redis stores it', () => {
    const stored = JSON.parse(JSON.stringify(data)) as ToolJobData;
    expect(stored.signature).toEqual({ keyId: ring.signing.id, mac: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(stored.format).toBe(2);
  });
});

describe('cluster key prefix', () => {
  const cluster = { isCluster: true } as never;
  it('gets a hash tag on a cluster connection only', () => {
    expect(queuePrefix({ connection: { host: '127.0.0.1' } })).toBe('bull');
    expect(queuePrefix({ connection: { host: '127.0.0.1' }, prefix: 'app' })).toBe('app');
    expect(queuePrefix({ connection: cluster })).toBe('{bull}');
    expect(queuePrefix({ connection: cluster, prefix: 'app' })).toBe('{app}');
    expect(queuePrefix({ connection: cluster, prefix: '{tenant-a}:jobs' })).toBe('{tenant-a}:jobs');
  });
});

describe('job ids', () => {
  it('uses the call id when BullMQ accepts it, else a stable hash', () => {
    expect(jobIdForCall('call_abc-1.2')).toBe('call_abc-1.2');
    expect(jobIdForCall('toolu:01')).toMatch(/^call-[0-9a-f]{40}$/);
    expect(jobIdForCall('toolu:01')).toBe(jobIdForCall('toolu:01'));
    expect(jobIdForCall('12345')).toMatch(/^call-/);
    expect(jobIdForCall('')).not.toBe(jobIdForCall(''));
  });

  it('are logged as they are only when they hold nothing but id characters', () => {
    expect(jobIdForLog('call_abc-1.2')).toBe('call_abc-1.2');
    expect(jobIdForLog('evil\u2028line')).toMatch(/^\(job id not shown; sha256 [0-9a-f]{16}\)$/);
  });
});

describe('per-tool queue options', () => {
  it('become BullMQ job options', () => {
    const definition = new ToolRegistry({ logger: silentLogger }).register(Connect);
    expect(jobOptionsFor(definition)).toEqual({ attempts: 3, backoff: { type: 'fixed', delay: 250 }, priority: 5 });
  });

  it.each([
    [{ attempts: 0 }],
    [{ attempts: 1.5 }],
    [{ priority: 0 }],
    [{ backoff: { type: 'linear', delayMs: 10 } }],
    [{ backoff: { type: 'fixed', delayMs: -1 } }],
    [{ retries: 3 }],
  ])('refuses %j at registration', (queue) => {
    class BadParams {
      @ToolParam() label!: string;
    }
    @Command({ name: 'bad', description: 'Bad', params: BadParams, queue: queue as never })
    class Bad {
      execute() {
        return 'ok';
      }
    }
    expect(() => new ToolRegistry({ logger: silentLogger }).register(Bad)).toThrow(DefinitionError);
  });
});
