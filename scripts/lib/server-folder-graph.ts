import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { serverProductionFiles } from './server-production-files.ts';

/**
 * The folder-level import graph of packages/server/src, as the layering sees it: one node per folder
 * of a layer (`core/platform`, `domain/billing`, `entry/relay`) and `(root)` for the composition files
 * at the src root. Production files only (tests and `testing/` folders may build the whole app), and
 * runtime imports only: `import type` and `export type` are erased and tie no module to another.
 */
export type FolderGraph = Map<string, Map<string, string[]>>;

/** Lowest first: a folder may import its own layer's folders (without a cycle) and those of the layers below. */
export const layers = ['core', 'domain', 'entry', '(root)'] as const;

const staticImport = /(?:^|[\n;])\s*(?:import|export)\s+(type\s+)?(?:[^'"`;]*?\sfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]/g;
const dynamicImport = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** `layer/folder` for a file in a layer, `(root)` for a file at the root, the first folder otherwise. */
export function folderOf(srcRoot: string, file: string): string {
  const parts = relative(srcRoot, file).split(sep);
  if (parts.length === 1) return '(root)';
  if ((layers as readonly string[]).includes(parts[0]!) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0]!;
}

function runtimeSpecifiers(source: string): string[] {
  const specifiers: string[] = [];
  for (const match of source.matchAll(staticImport)) if (!match[1]) specifiers.push(match[2]!);
  for (const match of source.matchAll(dynamicImport)) specifiers.push(match[1]!);
  return specifiers;
}

/** Every folder-to-folder runtime import, with the file-to-file imports behind it. */
export function folderGraph(srcRoot: string): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const file of serverProductionFiles(srcRoot)) {
    const from = folderOf(srcRoot, file);
    if (!graph.has(from)) graph.set(from, new Map());
    for (const specifier of runtimeSpecifiers(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(srcRoot + sep)) continue;
      const to = folderOf(srcRoot, target);
      if (to === from) continue;
      const edges = graph.get(from)!;
      edges.set(to, [...(edges.get(to) ?? []), `${relative(srcRoot, file)} -> ${relative(srcRoot, target)}`]);
    }
  }
  return graph;
}

/** The folders that import each other, directly or round a loop (strongly connected components of two or more). */
export function folderCycles(graph: FolderGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

/** The layer of a folder; -1 for a folder outside every layer. */
function layerRank(folder: string): number {
  return (layers as readonly string[]).indexOf(folder === '(root)' ? folder : folder.split('/')[0]!);
}

/** Imports from a lower layer into a higher one, and folders outside the layers, each with an example import. */
export function importsAgainstLayers(graph: FolderGraph): string[] {
  const found: string[] = [];
  for (const [from, edges] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    if (layerRank(from) < 0) found.push(`${from} is in no layer`);
    for (const [to, imports] of edges) if (layerRank(from) >= 0 && layerRank(to) > layerRank(from)) found.push(`${from} -> ${to} (${imports[0]})`);
  }
  return found;
}
