/**
 * The package's layout, checked on its sources: no import cycle, and the client connection split at its seams
 * (lifecycle, registry sync, call forwarding) with the sync and forwarding modules never importing the lifecycle.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { importCycles, moduleGraph } from '../../../providers/test/support/module-graph';

const graph = moduleGraph(join(__dirname, '..', '..', 'src'));

describe('module layout of @toolwright/mcp', () => {
  it('has no import cycle', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('registry sync and call forwarding do not import the connection lifecycle', () => {
    for (const seam of ['client/registry-sync.ts', 'client/call-forwarding.ts']) {
      expect(graph.get(seam)).toBeDefined();
      expect(graph.get(seam)).not.toContain('client/mcp-server-connection.ts');
    }
    expect(graph.get('client/mcp-server-connection.ts')).toEqual(
      expect.arrayContaining(['client/registry-sync.ts', 'client/call-forwarding.ts']),
    );
  });

  it('the server maps tools and results through @toolwright/providers/mcp (no second mapping)', () => {
    const imports = (file: string) =>
      ts
        .preProcessFile(readFileSync(join(__dirname, '..', '..', 'src', file), 'utf8'), true, true)
        .importedFiles.map((imported) => imported.fileName);
    expect(imports('server/tool-listing.ts')).toContain('@toolwright/providers/mcp');
    expect(imports('server/tool-result.ts')).toContain('@toolwright/providers/mcp');
  });
});
