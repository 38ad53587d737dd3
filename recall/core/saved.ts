// The door of the index's saved forms: the JSON of toJSON/fromJSON, the binary cache's columns
// (written by packColumns, read at offsets by readColumns over a buffer or a file), and the
// tokenizer signature both are stamped with, so a cache made by other rules is rebuilt
// (docs/decisions/282).

export { RecallFormatError, RECALL_INDEX_FORMAT, RECALL_INDEX_VERSION } from './serialise.ts'
export type { SerializedDoc, SerializedRecallIndex } from './serialise.ts'
export { packColumns, RECALL_COLUMNS_VERSION } from './columns.ts'
export { bufferSource, descriptorSource, fileSource, readColumns, unpackColumns } from './columns-read.ts'
export type { ByteSource, LoadedColumns } from './columns-read.ts'
export { tokenizerSignature, TOKENIZER_VERSION } from './tokenize.ts'
