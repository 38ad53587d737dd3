import { stringify } from 'yaml'
import { jsTag } from '../../host/composition.ts'

/** Reading is the host's (the doctor compares snapshots with the running DSH the same way). */
export { isJsValue, parseComposition, type JsValue } from '../../host/composition.ts'

/** Render rows as YAML; `{"$js"}` values come back as `!!js "<expr>"`. */
export function renderComposition(rows: unknown): string {
  return stringify(rows, { customTags: [jsTag], lineWidth: 0, blockQuote: 'literal' })
}
