// The architecture, held to the code: no folder cycles in the services or the renderer, team/ reached
// only from the composition root, and every services folder in its layer (see docs/architecture.md).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycles, folderGraph, importSpecifiers, type FolderEdge } from './importGraph';
import { mayImportTeam, serviceLayers, temporaryAllowlist } from './layers';

const root = fileURLToPath(new URL('../..', import.meta.url));
const graph = folderGraph(root);
const allowed = (edge: { from: string; to: string }) =>
  temporaryAllowlist.some((entry) => entry.from === edge.from && entry.to === edge.to);
const edges = graph.edges.filter((edge) => !allowed(edge));

const describeEdge = (edge: FolderEdge) =>
  [
    `  ${edge.from} -> ${edge.to}, because:`,
    ...edge.imports.map((item) => `      ${item.from} imports ${item.to}`),
  ].join('\n');
const edgeOf = (from: string, to: string) => graph.edges.find((e) => e.from === from && e.to === to)!;
const isService = (folder: string) => folder.startsWith('services/');

describe('the folder graph', () => {
  it('has no import cycle between folders', () => {
    const cycles = findCycles(graph.nodes, edges).map((cycle) =>
      [
        `Cycle: ${cycle.join(' -> ')}`,
        ...cycle.slice(1).map((to, i) => describeEdge(edgeOf(cycle[i]!, to))),
        '  Break one of these imports: move the module to the folder it belongs to, or let the lower',
        '  folder own a small interface that the upper one implements (services: wired in electron/services/index.ts).',
      ].join('\n'),
    );
    expect(cycles.join('\n\n'), 'folders importing each other in a cycle').toBe('');
  });

  it('lets only team/ and the composition root import team/ inside electron/services', () => {
    const offending = edges
      .filter((e) => e.to === 'services/team' && isService(e.from) && !mayImportTeam.includes(e.from))
      .map(describeEdge);
    expect(
      offending.join('\n'),
      'team mode reaches the other folders only through interfaces they own, chosen in electron/services/index.ts',
    ).toBe('');
  });

  it('keeps every folder of electron/services in a layer, importing only its own layer or lower ones', () => {
    const layerOf = new Map<string, number>();
    serviceLayers.forEach((layer, i) => layer.folders.forEach((folder) => layerOf.set(folder, i)));
    const unplaced = graph.nodes
      .filter((node) => isService(node) && !layerOf.has(node))
      .map((node) => `  ${node}`);
    expect(
      unplaced.join('\n'),
      'not in serviceLayers (test/architecture/layers.ts); a file loose at the root of electron/services goes into a folder',
    ).toBe('');
    const upwards = edges
      .filter((e) => isService(e.from) && isService(e.to) && layerOf.get(e.to)! < layerOf.get(e.from)!)
      .map(describeEdge);
    expect(
      upwards.join('\n'),
      'imports of a higher layer (serviceLayers in test/architecture/layers.ts)',
    ).toBe('');
  });

  it('has no entry left on the temporary allowlist whose import is gone', () => {
    const stale = temporaryAllowlist
      .filter((entry) => !graph.edges.some((e) => e.from === entry.from && e.to === entry.to))
      .map((entry) => `  ${entry.from} -> ${entry.to} (${entry.why})`);
    expect(
      stale.join('\n'),
      'no longer imported: remove from temporaryAllowlist in test/architecture/layers.ts',
    ).toBe('');
  });
});

describe('the graph code', () => {
  it('reads static, type-only, re-exported, dynamic and worker imports, and nothing in comments', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      "export { c } from './c';",
      "const d = () => import('./d');",
      "new Worker(new URL('./e.ts', import.meta.url));",
      "import { f } from 'package';",
      "// import { g } from './g';",
      "const h = `import { h } from './h'`;",
    ].join('\n');
    expect(importSpecifiers('x.ts', text)).toEqual(['./a', '../b', './c', './d', './e.ts']);
  });

  it('names each cycle once, from its first folder back to it', () => {
    const nodes = ['a', 'b', 'c', 'd'];
    const cycles = findCycles(nodes, [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
      { from: 'c', to: 'd' },
    ]);
    expect(cycles).toEqual([['a', 'b', 'c', 'a']]);
    expect(findCycles(nodes, [{ from: 'a', to: 'b' }])).toEqual([]);
  });
});
