import type { recallZh } from '../zh/recall.ts'

/** Why recall brought nothing (recall/core/abstain.ts's reasons), in English: the doctor and `cyrene memory recall`. */
export const recallEn: { readonly [K in keyof typeof recallZh]: string } = {
  'recall.silence.empty-query': 'the message has no words to search for (only punctuation, stop words or nothing)',
  'recall.silence.empty-index': 'no memory is indexed yet',
  'recall.silence.no-match': 'no memory shares a word with the message (or a dictionary translation of one)',
  'recall.silence.low-coverage':
    'the best memory covers {coverage} % of what the message asks about, under the {needed} % needed: nothing stored seems to be about it',
  'recall.silence.weak-match':
    'the best memory covers {coverage} % of what the message asks about (under {needed} %) and only through common words: nothing stored seems to be about it',
  'recall.silence.unknown-person': 'the message asks about someone no memory mentions, and the best memory covers only {coverage} % of it (under {needed} %)',
  'recall.silence.unknown-name': 'the message names a place or thing no memory mentions, and the best memory covers only {coverage} % of it (under {needed} %)',
  'recall.silence.missing-thing':
    'the memories found share only actions or qualities with the message, not the thing it asks about nor a kind of it, and cover {coverage} % of it (under {needed} %)',
  'recall.silence.no-answer':
    'the memories about what the message asks hold no answer of the kind it asks for (a name, a brand, a sum of money, an age, a day of the week, the date of a birthday, a number to look up)',
  'recall.silence.only-characters':
    'the memories found share only single characters of the words in the message (a character of another word), not one of its words nor a translation of one',
  'recall.silence.left-out': 'the hits found are already in {{cyrene_memory}}, near-duplicates of each other, or do not fit the budget',
  'recall.silence.unknown': 'no reason given ({reason})',
  'recall.cli.nothing': 'nothing would be injected (0/{budget} characters)',
  'recall.cli.nothingBecause': 'nothing would be injected (0/{budget} characters): {why}',
  'recall.cli.hits': '{n} hit(s), {chars}/{budget} characters',
  'recall.cli.cut': ', {n} shortened or left out for the budget',
  'recall.cli.inBlock': '  left out {id}: {{cyrene_memory}} already shows it',
  'recall.cli.duplicate': '  left out {id}: a near-duplicate of a better hit',
}
