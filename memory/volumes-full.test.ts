import { promises as fs } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fillDisk } from '../durable/testing/tmpfs.ts'
import { useTmpfs } from '../durable/testing/use-tmpfs.ts'
import { MemoryStore } from './store.ts'
import { ensureVolumePersonaHash, openVolume, readVolumes, type PersonaSource } from './volumes.ts'

/**
 * A new volume on a real full disk (a 3 MB tmpfs as DSH_HOME; tests run as root): room for 卷.json but
 * not for the persona copy. An outside fault audit found 卷.json naming volume 1 with no persona copy,
 * a temp folder left for good, and a retry that opened volume 2.
 */
const fsys = useTmpfs('3m')

describe('a new volume on a full disk', () => {
  it('changes nothing, leaves no temp folder, and the retry opens the same volume once', async () => {
    const pkg = await fs.mkdtemp(join(tmpdir(), 'cyrene-vol-pkg-'))
    try {
      await fs.mkdir(join(pkg, 'persona'))
      await fs.mkdir(join(pkg, 'philosophy'))
      // A persona the size of a real one and more: what the copy needs and the disk will not have.
      await fs.writeFile(join(pkg, 'persona/chat.md'), '我是昔涟。'.repeat(20_000))
      await fs.writeFile(join(pkg, 'philosophy/wuyu.md'), '德智体美劳')
      const sources: PersonaSource[] = [
        { name: 'persona/chat.md', path: join(pkg, 'persona/chat.md') },
        { name: 'philosophy/wuyu.md', path: join(pkg, 'philosophy/wuyu.md') },
      ]
      const home = fsys.dir
      const store = await MemoryStore.open({ env: { DSH_HOME: home } })
      await ensureVolumePersonaHash(store, sources)
      const before = await fs.readFile(join(store.root, '元/卷.json'), 'utf8')
      const filler = join(home, 'filler')
      await fillDisk(filler, 64 * 1024)
      await expect(openVolume(store, { reason: '新的开始', confirm: 'new-volume', sources }, { by: 'person' })).rejects.toThrow()
      expect(await fs.readFile(join(store.root, '元/卷.json'), 'utf8')).toBe(before)
      expect((await fs.readdir(join(store.root, '元/卷'))).filter((n) => n.includes('.tmp-'))).toEqual([])
      await fs.rm(filler)
      const v = await openVolume(store, { reason: '新的开始', confirm: 'new-volume', sources }, { by: 'person' })
      expect(v.id).toBe(1)
      expect((await readVolumes(store))?.current).toBe(1)
      await store.close()
    } finally {
      await fs.rm(pkg, { recursive: true, force: true })
      for (const d of ['000', '001']) await fs.chmod(join(fsys.dir, 'cyrene-philia093-0/元/卷', d, 'persona'), 0o700).catch(() => undefined)
    }
  })
})
