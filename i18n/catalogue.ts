import type { zh } from './zh/index.ts'

/** A message's key: zh is the source of the keys (i18n/index.ts). */
export type MessageKey = keyof typeof zh
/** A catalogue: every key, in one language. */
export type Catalogue = { readonly [K in MessageKey]: string }
