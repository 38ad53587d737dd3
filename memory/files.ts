/**
 * The door to the store's file primitives: atomic writes, strict UTF-8 reads that follow no
 * link, append-only lines, tree walks, file stamps and the cooperative yielder. What the recall
 * worker and the rooms use to touch a file of the store without loading the store
 * (docs/decisions/281).
 */
export {
  readTextOr,
  inspectBelow,
  appendLine,
  ensureDir,
  writeAtomic,
  decodeUtf8,
  readNoFollow,
  readNoFollowSync,
  walkFiles,
  isTempName,
  linkTarget,
} from './fsio.ts'
export { stampOf, fileStamp, fileStampSync, type FileStamp } from './file-stamp.ts'
export { yielder } from './yielder.ts'
