import { crc32, deflateRawSync } from 'node:zlib'

/** One member of a zip made for a test: stored or deflated, and, to make a broken one, a size or CRC that lies. */
export interface ZipMember {
  name: string
  data: Buffer | string
  store?: boolean
  /** The uncompressed size the headers declare (default: the real one). */
  declaredSize?: number
  /** The CRC the headers declare (default: the real one). */
  declaredCrc?: number
}

/** A plain zip (no ZIP64, no data descriptors) of `members`, each header written by hand as the format lays it out. */
export function zip(members: ZipMember[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const m of members) {
    const data = Buffer.isBuffer(m.data) ? m.data : Buffer.from(m.data, 'utf8')
    const packed = m.store === true ? data : deflateRawSync(data)
    const name = Buffer.from(m.name, 'utf8')
    const crc = m.declaredCrc ?? crc32(data)
    const size = m.declaredSize ?? data.length
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x800, 6)
    local.writeUInt16LE(m.store === true ? 0 : 8, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(packed.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0x800, 8)
    central.writeUInt16LE(m.store === true ? 0 : 8, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(packed.length, 20)
    central.writeUInt32LE(size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, packed)
    centrals.push(central, name)
    offset += local.length + name.length + packed.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(members.length, 8)
  end.writeUInt16LE(members.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}
