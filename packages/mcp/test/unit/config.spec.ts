import 'reflect-metadata';
import { DefinitionError, ToolRegistry } from '@toolwright/core';
import { connectMcpServers, serveMcp, type McpServerConfig } from '@toolwright/mcp';

describe('configuration errors are found before anything starts', () => {
  const registry = new ToolRegistry();

  it.each<[unknown, string]>([
    [
      [{ name: 'a b', command: 'x' }],
      'connectMcpServers: servers[0].name: has the name "a b". Fix: use 1-64 letters, digits, "_" or "-".',
    ],
    [
      [
        { name: 'a', command: 'x' },
        { name: 'a', url: 'http://127.0.0.1/mcp' },
      ],
      'connectMcpServers: servers[1].name: repeats the name "a". Fix: give every server its own name.',
    ],
    [
      [{ name: 'a', command: 'x', url: 'http://127.0.0.1/mcp' }],
      'connectMcpServers: servers[0] ("a"): sets both command and url. Fix: give a command (stdio) or a url (Streamable HTTP).',
    ],
    [
      [{ name: 'a' }],
      'connectMcpServers: servers[0] ("a"): sets neither command nor url. Fix: give a command (stdio) or a url (Streamable HTTP).',
    ],
    [
      [{ name: 'a', url: 'file:///etc/passwd' }],
      'connectMcpServers: servers[0] ("a"): has a file: url. Fix: use an http: or https: url.',
    ],
    [[{ name: 'a', url: 'not a url' }], 'connectMcpServers: servers[0] ("a"): has an invalid url "not a url".'],
    [
      [{ name: 'a', command: 'x', transport: 'http' }],
      'connectMcpServers: servers[0] ("a"): has a command but transport "http". Fix: use transport: \'stdio\' or leave it out.',
    ],
    [
      [{ name: 'a', command: 'x', timeoutMs: 0 }],
      'connectMcpServers: servers[0] ("a"): has timeoutMs 0. Fix: use a positive number of milliseconds.',
    ],
  ])('connectMcpServers(%j)', (servers, message) => {
    expect(() => connectMcpServers(registry, servers as McpServerConfig[])).toThrow(DefinitionError);
    expect(() => connectMcpServers(registry, servers as McpServerConfig[])).toThrow(message);
  });

  it('serveMcp refuses a non-loopback interface without allowedHosts (DNS-rebinding protection stays on)', async () => {
    await expect(serveMcp(registry, { transport: 'http', host: '0.0.0.0' })).rejects.toThrow(
      'serveMcp.allowedHosts: binding to 0.0.0.0 needs allowedHosts (the Host names clients use), so DNS-rebinding protection can check them.',
    );
    await expect(serveMcp(registry, { transport: 'websocket' } as never)).rejects.toThrow(
      'serveMcp: transport is "websocket".',
    );
  });
});
