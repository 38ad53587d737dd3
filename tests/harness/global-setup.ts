import { ensureDsh } from '../../scripts/ensure-dsh.ts'

// The real dsh CLI install backs the drift guard, the roster's built-in presets and the e2e run.
export default function setup(): void {
  ensureDsh()
}
