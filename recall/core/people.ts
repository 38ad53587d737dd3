// The people a question can be about. "What does my brother do?" asks about a brother: when no
// memory mentions one (not the word, no translation, no synonym, not even its character), the
// store knows nothing about what is asked, whatever else of the question it holds (工作, 上班).
// English and Chinese name family differently (Chinese says older or younger: 哥哥 or 弟弟), and
// CC-CEDICT glosses 哥哥 "older brother", so the bare "brother" finds neither: the English side
// lists the everyday Chinese words here, for translation (query.ts) as for this rule.

import { chineseRelationWords } from './aliases.ts'
import { stemEnglish } from './stem.ts'

// A partner, a daughter or a son are called by the words the relations of aliases.ts list; the
// rest of the family is said otherwise in Chinese (older or younger, the mother's or the father's side).
const BROTHERS = ['哥哥', '弟弟', '哥', '弟']
const SISTERS = ['姐姐', '妹妹', '姐', '妹']
const ENGLISH_KIN: Readonly<Record<string, readonly string[]>> = {
  brother: BROTHERS,
  sister: SISTERS,
  // As people type them (little bro, my sis).
  bro: BROTHERS,
  sis: SISTERS,
  mum: ['妈妈', '妈', '母亲'],
  mom: ['妈妈', '妈', '母亲'],
  mother: ['妈妈', '妈', '母亲'],
  dad: ['爸爸', '爸', '父亲'],
  father: ['爸爸', '爸', '父亲'],
  parent: ['爸妈', '父母'],
  grandma: ['外婆', '奶奶', '姥姥'],
  grandmother: ['外婆', '奶奶', '姥姥'],
  grandpa: ['外公', '爷爷', '姥爷'],
  grandfather: ['外公', '爷爷', '姥爷'],
  ...Object.fromEntries(['daughter', 'son', 'husband', 'wife', 'boyfriend', 'girlfriend'].map((relation) => [relation, chineseRelationWords(relation)])),
}

const OTHER_ENGLISH_PEOPLE = ['friend', 'boss', 'manager', 'colleague', 'coworker', 'roommate', 'partner', 'fiance', 'uncle', 'aunt', 'cousin', 'child', 'kid']

// Simplified (both sides are folded before they get here).
const CHINESE_PEOPLE = [
  '妈',
  '妈妈',
  '母亲',
  '老妈',
  '爸',
  '爸爸',
  '父亲',
  '老爸',
  '爸妈',
  '父母',
  '外婆',
  '姥姥',
  '外公',
  '姥爷',
  '奶奶',
  '爷爷',
  '哥',
  '哥哥',
  '姐',
  '姐姐',
  '弟',
  '弟弟',
  '妹',
  '妹妹',
  '女儿',
  '闺女',
  '儿子',
  '孩子',
  '老公',
  '丈夫',
  '老婆',
  '妻子',
  '对象',
  '男朋友',
  '女朋友',
  '男友',
  '女友',
  '未婚夫',
  '未婚妻',
  '朋友',
  '闺蜜',
  '室友',
  '同事',
  '老板',
  '领导',
  '上司',
  '舅舅',
  '叔叔',
  '阿姨',
  '姑姑',
  '表哥',
  '表姐',
  '表弟',
  '表妹',
]

// The English words as tokenize gives them (wife → wife, roommate → roommat).
const KIN_BY_STEM = new Map(Object.entries(ENGLISH_KIN).map(([word, chinese]) => [stemEnglish(word), chinese]))
const PEOPLE: ReadonlySet<string> = new Set([...KIN_BY_STEM.keys(), ...OTHER_ENGLISH_PEOPLE.map(stemEnglish), ...CHINESE_PEOPLE])

/** The everyday Chinese words for an English kinship word (its stem, as the tokenizer gives it); [] for any other word. */
export function kinTranslations(stem: string): readonly string[] {
  return KIN_BY_STEM.get(stem) ?? []
}

/** True for a word that names a person of one's life (a stemmed English word or a simplified Chinese one). */
export function isPersonWord(term: string): boolean {
  return PEOPLE.has(term)
}
