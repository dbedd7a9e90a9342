import 'reflect-metadata';
import { stderrWarnings } from '../../src/output';

/** Issue 28, failure 5: the CLI's own log lines (warnings while loading tools) escape every line terminator. */
describe("the CLI's stderr log lines", () => {
  it('write one line per event whatever the message and details hold', () => {
    const forged = ['\u2028', '\u2029', '\u0085', '\r', '\u000b', '\u000c', '\n']
      .map((end) => `${end}[toolwright] forged`)
      .join('');
    let written = '';
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written += String(chunk);
      return true;
    });
    try {
      stderrWarnings.warn(`MCP server 'a' stderr: ${forged}`, { server: `a${forged}`, [`k${forged}`]: [forged] });
      stderrWarnings.error(`failed${forged}`);
    } finally {
      write.mockRestore();
    }
    const lines = written.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toMatch(/[\u2028\u2029\u0085\r\u000b\u000c\u0000-\u0009]/);
    expect(lines[0]).toMatch(/^\[toolwright\] MCP server 'a' stderr: \\u2028\[toolwright\] forged\\u2029/);
    const details = JSON.parse(lines[0]!.slice(lines[0]!.indexOf(' {') + 1)) as Record<string, unknown>;
    expect(details['server']).toBe(`a${forged}`);
  });
});
