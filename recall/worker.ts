import { parentPort, workerData } from 'node:worker_threads'
import { LocalRecall, type LiveRequest } from './live.ts'

/**
 * The recall index of a running engine, in a thread of its own: loading the
 * cache, building, levelling and searching never run on DSH's event loop
 * (CONTRACT#never-stall). live.ts starts it and speaks
 * to it; the work itself is LocalRecall's, the same as in-process.
 */
const port = parentPort
if (port !== null) {
  const local = LocalRecall.start((workerData as { root: string }).root, { cache: true })
  local.ready.then(
    (opened) => port.postMessage({ op: 'ready', opened }),
    (error: Error) => port.postMessage({ op: 'failed', message: error.message }),
  )
  port.on('message', (request: LiveRequest) => {
    void local.answer(request).then((reply) => port.postMessage(reply))
  })
}
