// The best k of n candidates without sorting all n: a query on a common word
// can touch tens of thousands of memories but only a handful are returned.

/**
 * The `k` best items under `compare` (negative = a ranks before b), sorted best first.
 * Deterministic as long as `compare` is a total order.
 */
export function topK<T>(items: Iterable<T>, k: number, compare: (a: T, b: T) => number): T[] {
  if (k <= 0) return []
  // Max-heap on "worst first": heap[0] is the worst of the kept items.
  const heap: T[] = []
  const worse = (a: T, b: T): boolean => compare(a, b) > 0
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item)
      siftUp(heap, heap.length - 1, worse)
    } else if (compare(item, heap[0]!) < 0) {
      heap[0] = item
      siftDown(heap, 0, worse)
    }
  }
  return heap.sort(compare)
}

function siftUp<T>(heap: T[], index: number, worse: (a: T, b: T) => boolean): void {
  let i = index
  while (i > 0) {
    const parent = (i - 1) >> 1
    if (!worse(heap[i]!, heap[parent]!)) return
    swap(heap, i, parent)
    i = parent
  }
}

function siftDown<T>(heap: T[], index: number, worse: (a: T, b: T) => boolean): void {
  let i = index
  for (;;) {
    const left = 2 * i + 1
    const right = left + 1
    let top = i
    if (left < heap.length && worse(heap[left]!, heap[top]!)) top = left
    if (right < heap.length && worse(heap[right]!, heap[top]!)) top = right
    if (top === i) return
    swap(heap, i, top)
    i = top
  }
}

function swap<T>(heap: T[], a: number, b: number): void {
  const t = heap[a]!
  heap[a] = heap[b]!
  heap[b] = t
}

/**
 * The `k`-th largest of `values` (−∞ when there are fewer than k): a min-heap of the k largest,
 * so a pass over tens of thousands of scores keeps only k of them.
 */
export function kthLargest(values: Float64Array, k: number): number {
  if (k <= 0 || values.length < k) return -Infinity
  const heap = new Float64Array(k)
  let size = 0
  for (let j = 0; j < values.length; j++) {
    const v = values[j]!
    if (size < k) {
      let i = size++
      heap[i] = v
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (heap[parent]! <= heap[i]!) break
        const t = heap[parent]!
        heap[parent] = heap[i]!
        heap[i] = t
        i = parent
      }
    } else if (v > heap[0]!) {
      heap[0] = v
      let i = 0
      for (;;) {
        const left = 2 * i + 1
        const right = left + 1
        let least = i
        if (left < k && heap[left]! < heap[least]!) least = left
        if (right < k && heap[right]! < heap[least]!) least = right
        if (least === i) break
        const t = heap[least]!
        heap[least] = heap[i]!
        heap[i] = t
        i = least
      }
    }
  }
  return heap[0]!
}
