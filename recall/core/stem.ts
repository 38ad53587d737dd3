// A deliberately tiny English suffix stripper. It does not try to produce real
// stems; it only has to map the forms people actually alternate between in chat
// ("paint", "paints", "painted", "painting") to one key, the same way for the
// query and for the memory. A silent e is kept where it tells words apart
// (plane / plan, note / not, hope / hop), as Porter's stemmer keeps it.

const VOWEL = /[aeiouy]/

// The past forms of the everyday irregular verbs, read as the verb ("spent" is what was spent, as
// "painted" is what was painted). Left out where the form is a word of its own more often than a
// past tense in a personal diary: left (the hand), saw (the tool), won (the currency), lay, ground,
// bound, wound.
const IRREGULAR_PAST: ReadonlyMap<string, string> = new Map(
  Object.entries({
    ate: 'eat',
    eaten: 'eat',
    began: 'begin',
    begun: 'begin',
    bit: 'bite',
    bitten: 'bite',
    bought: 'buy',
    broke: 'break',
    broken: 'break',
    brought: 'bring',
    built: 'build',
    caught: 'catch',
    chose: 'choose',
    chosen: 'choose',
    came: 'come',
    drank: 'drink',
    drunk: 'drink',
    drove: 'drive',
    driven: 'drive',
    fed: 'feed',
    fell: 'fall',
    fallen: 'fall',
    flew: 'fly',
    flown: 'fly',
    forgot: 'forget',
    forgotten: 'forget',
    gave: 'give',
    given: 'give',
    grew: 'grow',
    grown: 'grow',
    heard: 'hear',
    held: 'hold',
    hid: 'hide',
    hidden: 'hide',
    kept: 'keep',
    knew: 'know',
    known: 'know',
    lent: 'lend',
    lost: 'lose',
    met: 'meet',
    paid: 'pay',
    ran: 'run',
    rode: 'ride',
    ridden: 'ride',
    sent: 'send',
    sold: 'sell',
    seen: 'see',
    slept: 'sleep',
    spent: 'spend',
    spoke: 'speak',
    spoken: 'speak',
    stole: 'steal',
    stolen: 'steal',
    swam: 'swim',
    swum: 'swim',
    taught: 'teach',
    thought: 'think',
    threw: 'throw',
    thrown: 'throw',
    told: 'tell',
    understood: 'understand',
    woke: 'wake',
    woken: 'wake',
    wore: 'wear',
    worn: 'wear',
    wrote: 'write',
    written: 'write',
    found: 'find',
    felt: 'feel',
  }),
)

// The plurals no suffix rule reaches, read as the noun (teeth is what the dentist looked at, as the
// tooth was). Left out where the form is a verb of its own as often: leaves, lives.
const IRREGULAR_PLURAL: ReadonlyMap<string, string> = new Map(
  Object.entries({
    feet: 'foot',
    teeth: 'tooth',
    mice: 'mouse',
    geese: 'goose',
    wives: 'wife',
    knives: 'knife',
    children: 'child',
    men: 'man',
    women: 'woman',
  }),
)

/** Strip plural, possessive, -ed and -ing endings from one lower-case ASCII word. */
export function stemEnglish(word: string): string {
  const base = IRREGULAR_PAST.get(word) ?? IRREGULAR_PLURAL.get(word)
  if (base !== undefined) return stemEnglish(base)
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
