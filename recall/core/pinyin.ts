// A name crosses languages by its sound, not its meaning: the person writes 阿哲 in Chinese and
// Azhe in English, 苏苏 and Susu. No dictionary holds a friend's name, but CC-CEDICT gives every
// character its readings, so a Chinese word reads as pinyin (苏苏 → susu) and a word written in
// pinyin cuts into syllables whose characters the store may hold (azhe → a·zhe → 阿哲). Pure
// functions over look-ups; query.ts decides which words are worth spelling (decision 049).
// Only Hanyu Pinyin without tones is read: Wade–Giles (Hsinchu) or a tone mark is not.

/** A reading as CC-CEDICT writes it (zhe2, Lu:4, A1) as a person writes it without tones: zhe, lv and lu, a. */
export function tonelessReadings(pinyin: string): string[] {
  const plain = pinyin.toLowerCase().replace(/[1-5]$/, '')
  // A syllable has a vowel; CC-CEDICT also lists letters (a lone P, xx) as readings of symbols.
  if (!/^[a-z:]+$/.test(plain) || !/[aeiou]/.test(plain) || plain === 'xx') return []
  // ü is typed v (lv) or u (lu) without a pinyin keyboard.
  return plain.includes('u:') ? [plain.replace('u:', 'v'), plain.replace('u:', 'u')] : [plain]
}

/**
 * How a Chinese word may be read: every combination of its characters' readings, in order, at most
 * `limit`, one syllable per character (老邓 → lao, deng), joined as Azhe or apart as Lao Deng;
 * [] when a character has none.
 */
export function syllableSpellings(word: string, readings: (char: string) => readonly string[], limit: number): string[][] {
  let out: string[][] = [[]]
  for (const char of word) {
    const options = readings(char)
    if (options.length === 0) return []
    const next: string[][] = []
    for (const head of out) for (const tail of options) if (next.length < limit) next.push([...head, tail])
    out = next
  }
  return out
}

/** Longest syllable of Hanyu Pinyin (zhuang, shuang). */
const LONGEST_SYLLABLE = 6

/** The ways to cut a Latin word into syllables `isSyllable` knows, every letter used, at most `limit`. */
export function syllabify(word: string, isSyllable: (syllable: string) => boolean, limit: number): string[][] {
  const out: string[][] = []
  const walk = (from: number, taken: string[]): void => {
    if (out.length >= limit) return
    if (from === word.length) {
      if (taken.length > 0) out.push([...taken])
      return
    }
    for (let end = Math.min(word.length, from + LONGEST_SYLLABLE); end > from; end--) {
      const syllable = word.slice(from, end)
      if (!isSyllable(syllable)) continue
      taken.push(syllable)
      walk(end, taken)
      taken.pop()
    }
  }
  walk(0, [])
  return out
}

/**
 * The Chinese words `held` knows that read as `syllables` in order. The walk goes character by
 * character and keeps a prefix only while `held` knows it (the index holds every character and
 * pair of its memories), so a common syllable's hundreds of characters cost little; at most
 * `limit` prefixes are tried.
 */
export function heldSpellings(
  syllables: readonly string[],
  spelledBy: (syllable: string) => readonly string[],
  held: (word: string) => boolean,
  limit: number,
): string[] {
  let prefixes: string[][] = [[]]
  let tried = 0
  for (const syllable of syllables) {
    const next: string[][] = []
    for (const prefix of prefixes)
      for (const char of spelledBy(syllable)) {
        if (++tried > limit) return []
        // A word of 3 or more characters is held as its pairs and itself: check the last pair on the way.
        const word = [...prefix, char]
        if (held(word.slice(-2).join(''))) next.push(word)
      }
    if (next.length === 0) return []
    prefixes = next
  }
  return prefixes.filter((word) => word.length >= 2 && held(word.join(''))).map((word) => word.join(''))
}
