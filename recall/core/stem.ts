// A deliberately tiny English suffix stripper. It does not try to produce real
// stems; it only has to map the forms people actually alternate between in chat
// ("paint", "paints", "painted", "painting") to one key, the same way for the
// query and for the memory. A silent e is kept where it tells words apart
// (plane / plan, note / not, hope / hop), as Porter's stemmer keeps it.

const VOWEL = /[aeiouy]/

/** Strip plural, possessive, -ed and -ing endings from one lower-case ASCII word. */
export function stemEnglish(word: string): string {
  let w = word
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w
  w = stripPlural(w)
  const verb = stripVerbEnding(w)
  if (verb !== undefined) {
    // hoping → hop → hope, as the word is written; hopping → hop stays.
    w = verb.undoubled || !isShortSyllable(verb.stem) ? verb.stem : verb.stem + 'e'
  }
  // A final silent "e" goes where it comes and goes with the suffixes (invite / inviting → invit),
  // and stays after one short syllable, where it tells the word apart (plane / plan, note / not).
  if (w.length > 3 && w.endsWith('e') && !w.endsWith('ee') && !isShortSyllable(w.slice(0, -1))) w = w.slice(0, -1)
  // A final y after a consonant is the i of its other forms (story / stories, movie / movies → stori, movi).
  if (/[^aeiouy]y$/.test(w) && VOWEL.test(w.slice(0, -2))) w = w.slice(0, -1) + 'i'
  return w
}

/** One syllable ending consonant, vowel, consonant (not w, x or y): plan, not, gam, lov, hop. */
function isShortSyllable(stem: string): boolean {
  return /^[^aeiouy]*[aeiouy][^aeiouywx]$/.test(stem)
}

function stripPlural(w: string): string {
  if (w.endsWith('sses')) return w.slice(0, -2)
  // tries → try (as short words keep their y), stories → stori (as story becomes).
  if (w.endsWith('ies') && w.length > 4) return w.length <= 5 ? w.slice(0, -3) + 'y' : w.slice(0, -2)
  if (/(?:ch|sh|x|zz)es$/.test(w)) return w.slice(0, -2)
  if (w.endsWith('s') && !/(?:ss|us|is|ous)$/.test(w)) return w.slice(0, -1)
  return w
}

function stripVerbEnding(w: string): { stem: string; undoubled: boolean } | undefined {
  for (const suffix of ['ing', 'ed']) {
    if (!w.endsWith(suffix)) continue
    const stem = w.slice(0, -suffix.length)
    if (stem.length < 3 || !VOWEL.test(stem)) return undefined
    // tried → try, as the three letters are written (skiing keeps its i).
    if (suffix === 'ed' && /^[^aeiou]{2}i$/.test(stem)) return { stem: stem.slice(0, -1) + 'y', undoubled: false }
    const single = undouble(stem)
    return { stem: single, undoubled: single !== stem }
  }
  return undefined
}

// "running" -> "runn" -> "run"; keep ll/ss/zz which are usually part of the word.
function undouble(stem: string): string {
  const last = stem[stem.length - 1]!
  if (stem.length > 3 && last === stem[stem.length - 2] && !'lsz'.includes(last) && !VOWEL.test(last)) {
    return stem.slice(0, -1)
  }
  return stem
}

// British spellings CC-CEDICT (American) does not use, as stems: favourit → favorit,
// colour → color, organis → organiz, analys → analyz, centr → center, travell → travel,
// programm → program.
const BRITISH: readonly [RegExp, string][] = [
  [/(?<=[a-z]{2}[^aeiou])our/, 'or'],
  [/(?<=[a-z]{3})is$/, 'iz'],
  [/(?<=[a-z]{3})ys$/, 'yz'],
  [/(?<=[a-z]{2})tr$/, 'ter'],
  [/(?<=[a-z]{3})ll$/, 'l'],
  [/(?<=[a-z]{4})mm$/, 'm'],
]

/** The American spelling of a British stem, or undefined when no rule applies; for dictionary look-ups only (a real word may match a rule). */
export function americanSpelling(stem: string): string | undefined {
  for (const [pattern, replacement] of BRITISH) if (pattern.test(stem)) return stem.replace(pattern, replacement)
  return undefined
}

// Endings English moves a word between kinds with (anxious → anxiety, allergic → allergy,
// promote → promotion): longest first, so a root is cut once.
const DERIVATIONAL = [
  'ation',
  'ical',
  'iety',
  'ious',
  'ment',
  'ness',
  'ety',
  'ity',
  'ion',
  'ous',
  'ive',
  'ist',
  'ism',
  'ic',
  'al',
  'iv',
  'er',
  'or',
  'y',
  'i',
  'e',
]
/** Shortest root a derivational ending is cut from (gener- of general is too short to say much). */
const MIN_ROOT = 4

/**
 * The other words of `term`'s family (a stem as tokenize emits it), as tokenize would emit them:
 * its root with each other derivational ending (anxious → anxiety, worri → worry). A dictionary
 * gives one part of speech; a person writes another. Forms that are no English word cost a look-up.
 */
export function relatedForms(term: string): string[] {
  if (!/^[a-z]+$/.test(term)) return []
  const out = new Set<string>()
  for (const ending of DERIVATIONAL) {
    if (!term.endsWith(ending) || term.length - ending.length < MIN_ROOT) continue
    const root = term.slice(0, -ending.length)
    for (const other of ['', ...DERIVATIONAL]) if (other !== ending) out.add(stemEnglish(root + other))
    break
  }
  if (out.size === 0 && term.length >= MIN_ROOT) for (const other of DERIVATIONAL) out.add(stemEnglish(term + other))
  out.delete(term)
  return [...out]
}
