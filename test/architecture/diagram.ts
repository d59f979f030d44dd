// The pictures in docs/architecture.md, drawn from the import graph: `npm run architecture` writes
// them between the markers and diagram.test.ts fails when the committed ones differ from the code.
import type { FolderEdge, FolderGraph } from './importGraph';
import { serviceLayers, temporaryAllowlist } from './layers';

export const BEGIN_MARKER =
  '<!-- architecture:begin — drawn from the imports by `npm run architecture`; do not edit by hand -->';
export const END_MARKER = '<!-- architecture:end -->';
export const REGENERATE = 'npm run architecture';

type Arrow = { from: string; to: string };

const isAllowlisted = (edge: Arrow) =>
  temporaryAllowlist.some((entry) => entry.from === edge.from && entry.to === edge.to);

/** Arrows implied by a longer path are left out, so the picture shows only what it must. */
function reduce(arrows: Arrow[]): Arrow[] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of arrows) next.set(from, (next.get(from) ?? new Set()).add(to));
  const reachesWithout = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [...(next.get(from) ?? [])].filter((n) => n !== to);
    while (stack.length) {
      const node = stack.pop()!;
      if (node === to) return true;
      if (seen.has(node)) continue;
      seen.add(node);
      stack.push(...(next.get(node) ?? []));
    }
    return false;
  };
  return arrows.filter(({ from, to }) => !reachesWithout(from, to));
}

function unique(arrows: Arrow[]): Arrow[] {
  const seen = new Map<string, Arrow>();
  for (const arrow of arrows) if (arrow.from !== arrow.to) seen.set(`${arrow.from} ${arrow.to}`, arrow);
  return [...seen.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

const idOf = (folder: string) => folder.replace(/[^A-Za-z0-9]/g, '_');
const baseName = (path: string) => path.replace(/^.*\//, '').replace(/\.tsx?$/, '');
const importedNames = (edge: FolderEdge) => [...new Set(edge.imports.map((i) => baseName(i.to)))].join(', ');

const processOf = (folder: string): string | null => {
  if (folder.startsWith('renderer/') || folder.startsWith('features/')) return 'renderer';
  if (folder.startsWith('services/')) return 'services';
  if (folder.startsWith('electron/')) return folder.slice('electron/'.length);
  return folder === 'shared' || folder === 'emulator' ? folder : null;
};

const processLabels: Record<string, string> = {
  renderer: 'renderer/<br/>React + MUI, sandboxed, no Node',
  preload: 'electron/preload/<br/>builds window.desk from the contract',
  main: 'electron/main/<br/>windows, security, IPC handlers',
  bridge: 'electron/bridge/<br/>local HTTP for browser mode and tests',
  cli: 'electron/cli/<br/>donation-desk command',
  services: 'electron/services/<br/>plain Node, one folder per concern',
  shared: 'shared/<br/>contract, donation rules, codecs',
  emulator: 'emulator/<br/>stand-in of the giving service',
};

/** Processes and what they import; the dotted arrows are calls at run time, not imports. */
export function processDiagram(graph: FolderGraph): string {
  const arrows = reduce(
    unique(
      graph.edges
        .map((e) => ({ from: processOf(e.from), to: processOf(e.to) }))
        .filter((a): a is Arrow => a.from !== null && a.to !== null),
    ),
  );
  const nodes = [
    ...new Set(graph.nodes.map(processOf).filter((n): n is string => n !== null && n in processLabels)),
  ].sort();
  return [
    '```mermaid',
    'flowchart LR',
    ...nodes.map((n) => `  ${n}["${processLabels[n]}"]`),
    ...arrows.map((a) => `  ${a.from} --> ${a.to}`),
    '  renderer -.->|"window.desk (Electron IPC)"| preload',
    '  preload -.->|"IPC"| main',
    '  renderer -.->|"HTTP with a per-launch secret (browser mode)"| bridge',
    '```',
  ].join('\n');
}

/** The services' folders in their layers, what each layer imports, and team mode's seams. */
export function servicesDiagram(graph: FolderGraph): string {
  const layerOf = new Map<string, string>();
  for (const layer of serviceLayers) for (const folder of layer.folders) layerOf.set(folder, layer.id);
  const edges = graph.edges.filter((e) => layerOf.has(e.from) && layerOf.has(e.to));
  const isSeam = (e: Arrow) =>
    (layerOf.get(e.from) === 'teamMode' && layerOf.get(e.to) === 'flows') ||
    (layerOf.get(e.from) === 'flows' && layerOf.get(e.to) === 'teamMode');
  const layerArrows = reduce(
    unique(
      edges
        .filter((e) => !isAllowlisted(e) && !isSeam(e))
        .map((e) => ({ from: layerOf.get(e.from)!, to: layerOf.get(e.to)! })),
    ),
  );
  const inLayer = edges.filter((e) => layerOf.get(e.from) === layerOf.get(e.to));
  const seams = edges.filter((e) => isSeam(e) && !isAllowlisted(e));
  const temporary = edges.filter(isAllowlisted);
  const label = (folder: string) => (folder === 'services/index' ? 'index.ts' : `${folder.slice(9)}/`);
  return [
    '```mermaid',
    'flowchart TB',
    ...serviceLayers.flatMap((layer) => [
      `  subgraph ${layer.id}["${layer.title}"]`,
      ...layer.folders
        .filter((folder) => graph.nodes.includes(folder))
        .map((folder) => `    ${idOf(folder)}["${label(folder)}"]`),
      '  end',
    ]),
    ...layerArrows.map((a) => `  ${a.from} --> ${a.to}`),
    ...inLayer.map((e) => `  ${idOf(e.from)} --> ${idOf(e.to)}`),
    ...seams.map((e) => `  ${idOf(e.from)} -->|"${importedNames(e)}"| ${idOf(e.to)}`),
    ...temporary.map((e) => `  ${idOf(e.from)} -.->|"temporary: ${importedNames(e)}"| ${idOf(e.to)}`),
    '```',
  ].join('\n');
}

/** What goes between the markers of docs/architecture.md. */
export function generatedSection(graph: FolderGraph): string {
  return [
    BEGIN_MARKER,
    '',
    '### Processes',
    '',
    processDiagram(graph),
    '',
    '### Layers of electron/services',
    '',
    'An arrow means "imports"; a layer may use the layers below it, never those above.',
    '',
    servicesDiagram(graph),
    '',
    END_MARKER,
  ].join('\n');
}

/** The document with its generated section replaced; null when a marker is missing. */
export function withGeneratedSection(document: string, graph: FolderGraph): string | null {
  const begin = document.indexOf(BEGIN_MARKER);
  const end = document.indexOf(END_MARKER);
  if (begin < 0 || end < begin) return null;
  return document.slice(0, begin) + generatedSection(graph) + document.slice(end + END_MARKER.length);
}
