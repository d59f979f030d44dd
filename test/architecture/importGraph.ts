// The product's import graph, folded to folders: what the layer test checks and what the diagram in
// docs/architecture.md is drawn from. Imports are read with the TypeScript compiler's parser, so a
// string that merely looks like an import (in a comment or a template) is never counted.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import of one product file, by repository-relative paths with forward slashes. */
export interface FileImport {
  from: string;
  to: string;
}

/** An edge between two folders, with the file imports that make it. */
export interface FolderEdge {
  from: string;
  to: string;
  imports: FileImport[];
}

export interface FolderGraph {
  nodes: string[];
  edges: FolderEdge[];
}

// Product code only: tests and test helpers do not make the architecture.
const productRoots = ['electron', 'renderer/src', 'shared', 'emulator'];
const isTestFile = (path: string) => /\.test\.tsx?$/.test(path) || /(^|\/)__tests__\//.test(path);

const toPosix = (path: string) => path.split(sep).join('/');

function listSourceFiles(root: string, under: string): string[] {
  const start = join(root, under);
  if (!existsSync(start)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name !== 'node_modules') walk(full);
      } else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) {
        const path = toPosix(relative(root, full));
        if (!isTestFile(path)) out.push(path);
      }
    }
  };
  walk(start);
  return out;
}

/** The relative module specifiers one file imports: static, re-exports, `import()` and worker URLs. */
export function importSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (
      // new Worker(new URL('./worker.ts', import.meta.url)) loads that file as a module too.
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'URL' &&
      node.arguments?.length === 2 &&
      ts.isStringLiteralLike(node.arguments[0]!) &&
      node.arguments[1]!.getText(source) === 'import.meta.url'
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((s) => s.startsWith('./') || s.startsWith('../') || s === '.' || s === '..');
}

function resolveImport(root: string, fromFile: string, specifier: string): string | null {
  const base = resolve(root, dirname(fromFile), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  for (const candidate of candidates) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return toPosix(relative(root, candidate));
  }
  return null;
}

/** Every import between product files, resolved to the file it reaches. */
export function collectFileImports(root: string): FileImport[] {
  const imports: FileImport[] = [];
  for (const under of productRoots) {
    for (const file of listSourceFiles(root, under)) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const specifier of importSpecifiers(file, text)) {
        const to = resolveImport(root, file, specifier);
        if (to) imports.push({ from: file, to });
      }
    }
  }
  return imports;
}

/**
 * The folder a file belongs to in the architecture:
 * - `services/<folder>` for each first-level folder of electron/services, `services/index` for its
 *   composition root, and `services/<file>` for any other file loose at its root;
 * - `electron/<process>` for main, preload, bridge and cli;
 * - `features/<feature>` for each feature of the renderer, `renderer/<folder>` for its other folders;
 * - `shared` and `emulator` whole.
 */
export function folderOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'electron' && parts[1] === 'services') {
    const rest = parts.slice(2);
    if (rest.length === 1) return `services/${rest[0]!.replace(/\.tsx?$/, '')}`;
    return `services/${rest[0]}`;
  }
  if (parts[0] === 'electron') return `electron/${parts[1]!.replace(/\.tsx?$/, '')}`;
  if (parts[0] === 'renderer' && parts[1] === 'src') {
    if (parts[2] === 'features' && parts.length > 4) return `features/${parts[3]}`;
    return `renderer/${parts[2]!.replace(/\.tsx?$/, '')}`;
  }
  return parts[0]!;
}

/** Folds file imports into folder edges; imports inside one folder are left out. */
export function foldToFolders(imports: FileImport[]): FolderGraph {
  const nodes = new Set<string>();
  const edges = new Map<string, FolderEdge>();
  for (const item of imports) {
    const from = folderOf(item.from);
    const to = folderOf(item.to);
    nodes.add(from);
    nodes.add(to);
    if (from === to) continue;
    const key = `${from}\0${to}`;
    const edge = edges.get(key) ?? { from, to, imports: [] };
    edge.imports.push(item);
    edges.set(key, edge);
  }
  const byName = (a: FolderEdge, b: FolderEdge) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to);
  return { nodes: [...nodes].sort(), edges: [...edges.values()].sort(byName) };
}

export function folderGraph(root: string): FolderGraph {
  return foldToFolders(collectFileImports(root));
}

/**
 * The folder cycles of a graph: one cycle for each group of folders that reach each other
 * (a strongly connected component), found by walking from its first folder back to itself.
 */
export function findCycles(nodes: string[], edges: Array<{ from: string; to: string }>): string[][] {
  const next = new Map<string, string[]>();
  for (const node of nodes) next.set(node, []);
  for (const edge of edges) next.get(edge.from)?.push(edge.to);
  for (const list of next.values()) list.sort();

  // Tarjan's strongly connected components.
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!indexOf.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, indexOf.get(to)!));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...nodes].sort()) if (!indexOf.has(node)) connect(node);

  // One readable cycle per component: the shortest way from its first folder back to it.
  return components
    .map((component) => {
      const inside = new Set(component);
      const start = component[0]!;
      const cameFrom = new Map<string, string>();
      const queue = [start];
      let last: string | null = null;
      while (queue.length && !last) {
        const node = queue.shift()!;
        for (const to of next.get(node) ?? []) {
          if (!inside.has(to)) continue;
          if (to === start) {
            last = node;
            break;
          }
          if (!cameFrom.has(to)) {
            cameFrom.set(to, node);
            queue.push(to);
          }
        }
      }
      const path = [start];
      for (let node = last!; node !== start; node = cameFrom.get(node)!) path.splice(1, 0, node);
      return [...path, start];
    })
    .sort((a, b) => a.join().localeCompare(b.join()));
}
