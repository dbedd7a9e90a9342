import 'reflect-metadata';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '@toolwright/cli';
import { createOutput } from '../../src/output';
import { startOAuthTestServers, type OAuthTestServers } from '../../../mcp/test/support/oauth-servers';

/** `toolwright tools --mcp <url>` against a real OAuth-protected MCP server, with a "browser" that follows the printed URL. */
describe('toolwright --mcp <url> with OAuth', () => {
  let servers: OAuthTestServers;
  beforeEach(async () => {
    servers = await startOAuthTestServers();
  });
  afterEach(async () => {
    await servers.close();
  });

  async function run(tokenFile: string): Promise<{ code: number; stdout: string; stderr: string; browsed: number }> {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    let browsed = 0;
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const printed = /Open this URL in a browser:\n {2}(\S+)\n/.exec(err);
      if (printed && browsed === 0) {
        browsed++;
        // The user's browser: the authorization server approves and redirects to the CLI's listener.
        void fetch(printed[1]!, { redirect: 'manual', headers: { 'x-test-user': 'cli-user' } }).then((response) =>
          fetch(response.headers.get('location')!),
        );
      }
    });
    const argv = ['node', 'toolwright', 'tools', '--mcp', servers.mcpUrl, '--token-file', tokenFile];
    const code = await runCli(
      [...argv, '--oauth-port', '0', '--provider', 'openai', '--json'],
      createOutput(stdout, stderr),
    );
    return { code, stdout: out, stderr: err, browsed };
  }

  it('prints the URL to open, takes the redirect on 127.0.0.1, keeps the token in a 0600 file and reuses it', async () => {
    const tokenFile = join(mkdtempSync(join(tmpdir(), 'toolwright-cli-oauth-')), 'tokens.json');
    const first = await run(tokenFile);
    expect(first.code).toBe(0);
    expect(first.browsed).toBe(1);
    expect(first.stderr).toContain("MCP server 'server' needs your authorization. Open this URL in a browser:");
    expect(first.stdout).toContain('whoami');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(tokenFile, 'utf8')) as {
      servers: { server: { tokens: { default: { access_token: string } } } };
    };
    expect(servers.ownerOf(stored.servers.server.tokens.default.access_token)).toBe('cli-user');

    const second = await run(tokenFile);
    expect(second.code).toBe(0);
    expect(second.browsed).toBe(0);
    expect(servers.log.grants).toEqual(['authorization_code cli-user']);
  }, 120_000);
});
