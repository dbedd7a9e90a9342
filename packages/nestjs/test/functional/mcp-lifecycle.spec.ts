import 'reflect-metadata';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { Test } from '@nestjs/testing';
import { DefinitionError, PersonaToolExecutor, silentLogger, ToolRegistry } from '@toolwright/core';
import { isProcessAlive } from '@toolwright/mcp';
import { ToolwrightModule } from '@toolwright/nestjs';
import { guardStdout, ToolwrightMcpClientModule, ToolwrightMcpClients } from '@toolwright/nestjs/mcp';

const SDK_SERVER = join(resolve(__dirname, '..', '..', '..'), 'mcp', 'test', 'fixtures', 'sdk-stdio-server.js');

jest.setTimeout(60_000);

describe('MCP client connections tied to the Nest lifecycle', () => {
  it('connects at module init (the remote tools join the registry) and closes the server process at shutdown', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ToolwrightModule.forRoot({ logger: silentLogger }),
        ToolwrightMcpClientModule.forRoot({
          servers: [{ name: 'remote', command: process.execPath, args: [SDK_SERVER] }],
          waitForServers: true,
        }),
      ],
    }).compile();
    await moduleRef.init();
    const registry = moduleRef.get(ToolRegistry);
    expect(registry.has('remote.echo')).toBe(true);
    const result = await moduleRef
      .get(PersonaToolExecutor)
      .execute({ id: 'c1', name: 'remote.echo', arguments: '{"text": "hi"}' });
    expect(result).toMatchObject({ ok: true });
    const connection = moduleRef.get(ToolwrightMcpClients).connections!.get('remote')!;
    const pid = connection.status().pid!;
    expect(isProcessAlive(pid)).toBe(true);
    await moduleRef.close();
    expect(connection.status().state).toBe('closed');
    expect(isProcessAlive(pid)).toBe(false);
  });
});

describe('guardStdout', () => {
  it('lets the transport write and makes any other stdout write fail loudly (stderr and a thrown DefinitionError)', () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const written: string[] = [];
    const complaints: string[] = [];
    stdout.on('data', (chunk: Buffer) => written.push(chunk.toString()));
    stderr.on('data', (chunk: Buffer) => complaints.push(chunk.toString()));
    const guard = guardStdout(stdout as unknown as NodeJS.WriteStream, stderr);
    guard.stdout.write('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    expect(() => stdout.write('Starting my service v1.0...\n')).toThrow(DefinitionError);
    expect(() => stdout.write('again')).toThrow(
      /Something wrote to stdout while an MCP stdio server owns it.*"again".*Fix: log through the Nest logger/,
    );
    expect(complaints.join('')).toContain('"Starting my service v1.0...\\n"');
    guard.restore();
    stdout.write('after restore\n');
    expect(written).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}\n', 'after restore\n']);
  });
});
