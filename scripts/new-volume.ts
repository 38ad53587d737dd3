import { processIO } from '../cli/io.ts'
import { main } from '../cli/main.ts'

/**
 * The contract's entry for a person opening a new volume (卷):
 *   node scripts/new-volume.ts --reason "…" --confirm new-volume
 * the same as `cyrene volume new …`. It records the volume and its persona
 * fingerprint and snapshots the old persona read-only; it never edits persona text.
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(['volume', 'new', ...process.argv.slice(2)], processIO())
}
