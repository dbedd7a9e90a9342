import 'reflect-metadata';
import { silentLogger } from '@toolwright/core';
import { serveMcp, type McpServerHandle } from '@toolwright/mcp';
import { MemoryEventStore } from '../support/memory-event-store';
import { createEverythingRegistry } from './everything-app';
import { EXPECTED_FAILURES, runConformance } from './run-conformance';

/**
 * The official MCP conformance suite (every server scenario, `--suite all`) against serveMcp over Streamable HTTP.
 * Offline: the suite only talks to the URL it is given. The expected-failures file lists and justifies what does
 * not pass; the CLI fails on an unlisted failure and on a listed scenario that passes.
 */
describe('MCP conformance suite: server scenarios', () => {
  let handle: McpServerHandle;

  beforeAll(async () => {
    handle = await serveMcp(createEverythingRegistry(), {
      transport: 'http',
      logger: silentLogger,
      eventStore: new MemoryEventStore(),
      retryIntervalMs: 500,
    });
  });

  afterAll(async () => {
    await handle.close();
  });

  it('passes every scenario except the expected failures', async () => {
    const run = await runConformance(
      ['server', '--url', handle.url!, '--suite', 'all', '--expected-failures', EXPECTED_FAILURES],
      50_000,
    );
    const summary = run.output.slice(run.output.indexOf('=== SUMMARY ==='));
    if (run.code !== 0) throw new Error(`conformance exited with ${run.code}:\n${summary || run.output}`);
    expect(summary).toContain('Baseline check passed: all failures are expected.');
    for (const scenario of [
      'server-initialize',
      'tools-list',
      'tools-call-error',
      'tools-call-with-progress',
      'json-schema-2020-12',
      'dns-rebinding-protection',
    ]) {
      expect(summary).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
    }
  }, 60_000);
});
