// No module of app/ reaches itself through its imports (docs/architecture.md "No cycles"). Biome's layer rules keep
// imports flowing down between layers, but two modules of one layer (two models, say) may still import each other;
// such a circle makes load order decide whether a value is there yet, and ties the two into one concern. This builds
// the import graph of app/ with the TypeScript parser and fails listing every cycle (strongly connected component).
//
// Only imports that exist at run time count (tests/setup/import-graph.ts, docs/decisions/063-no-import-cycles.md):
// `import type` and `export type … from` are erased, so they cannot make a load-order cycle. Which layer may name
// which type is Biome's rule, and there types count.
import { describe, expect, it } from 'vitest'
import { importGraph, runtimeImports } from '../setup/import-graph'

/** Tarjan's strongly connected components with more than one module, or one that imports itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  // Iterative, so a deep chain of imports cannot overflow the call stack.
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }]
    index.set(start, counter)
    low.set(start, counter++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; next: number }
      const edges = graph.get(frame.node) ?? []
      if (frame.next < edges.length) {
        const target = edges[frame.next++] as string
        if (!index.has(target)) {
          index.set(target, counter)
          low.set(target, counter++)
          stack.push(target)
          onStack.add(target)
          work.push({ node: target, next: 0 })
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number))
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = []
        let member: string
        do {
          member = stack.pop() as string
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.node)
        if (component.length > 1 || edges.includes(frame.node)) components.push(component.sort())
      }
    }
  }
  return components
}

/** One path around a component, for the failure message: start at its first module and follow imports home. */
function loopThrough(component: string[], graph: Map<string, string[]>) {
  const members = new Set(component)
  const start = component[0] as string
  const previous = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const node = queue.shift() as string
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue
      if (target === start) {
        const loop = [start]
        for (let at: string | undefined = node; at !== undefined && at !== start; at = previous.get(at))
          loop.splice(1, 0, at)
        return [...loop, start].join(' → ')
      }
      if (!previous.has(target)) {
        previous.set(target, node)
        queue.push(target)
      }
    }
  }
  return component.join(', ')
}

describe('the import graph of app/', () => {
  it('finds a cycle, and only a runtime one, in a small graph', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ])
    expect(cycles(graph)).toEqual([['a', 'b', 'c'], ['e']])
    expect(loopThrough(['a', 'b', 'c'], graph)).toBe('a → b → c → a')
    const source = [
      "import type { A } from './a'",
      "import { type B, type C } from './b'",
      "export type * from './c'",
      "export type { D } from './d'",
      "import { e, type E } from './e'",
      "import './f'",
      "export { g } from '~/g'",
      "const h = await import('./h')",
      "type I = typeof import('./i')",
    ].join('\n')
    expect(runtimeImports('x.ts', source)).toEqual(['./b', './e', './f', '~/g', './h'])
  })

  it('has no cycle', () => {
    const graph = importGraph(['app'])
    // Sanity: the graph is app/'s, with its imports resolved.
    expect(graph.size).toBeGreaterThan(300)
    expect(graph.get('app/root.tsx')?.length).toBeGreaterThan(0)
    const found = cycles(graph).map(
      (component) => `${component.length} modules: ${component.join(', ')}\n    e.g. ${loopThrough(component, graph)}`,
    )
    expect(found, `Import cycles in app/ (docs/architecture.md "No cycles"):\n${found.join('\n')}`).toEqual([])
  })
})
