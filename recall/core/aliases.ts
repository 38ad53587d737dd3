// Who the person's people are. A memory that says 男朋友阿哲, 闺蜜苏苏 or "My boyfriend Kevin" ties
// a relation to a name; a question says 我男朋友 or "my boss" and means that person, while most
// memories about them use the name alone (和阿哲吵了一架, "I owe Susu 600 yuan"). The index keeps
// each tie as a term of the memory that states it (`aliasTerm`), so a saved index keeps it too and
// a removed memory takes it away; the query searches a relation's names beside the word (query.ts).
// Pure functions over text: nothing here reads the index.

import { CHINESE_STOP_WORDS } from './stopwords.ts'
import { stemEnglish } from './stem.ts'

/** Opens every alias term; ⟨ cannot come out of the tokenizer (see time-words.ts). */
export const ALIAS_OPEN = '⟨who:'
const ALIAS_CLOSE = '⟩'

/** Each relation with the Chinese and English words a person calls it by (simplified, lower case). */
const RELATIONS: Readonly<Record<string, { zh: readonly string[]; en: readonly string[] }>> = {
  boyfriend: { zh: ['男朋友', '男友'], en: ['boyfriend'] },
  girlfriend: { zh: ['女朋友', '女友'], en: ['girlfriend'] },
  husband: { zh: ['老公', '丈夫'], en: ['husband'] },
  wife: { zh: ['老婆', '妻子', '媳妇'], en: ['wife'] },
  fiance: { zh: ['未婚夫', '未婚妻'], en: ['fiance', 'fiancee', 'fiancé', 'fiancée'] },
  friend: { zh: ['闺蜜', '死党', '发小'], en: ['best friend', 'bestie'] },
  boss: { zh: ['老板', '上司', '领导', '主管', '老大'], en: ['boss', 'manager', 'supervisor', 'lead'] },
  roommate: { zh: ['室友', '舍友'], en: ['roommate', 'flatmate'] },
  'younger brother': { zh: ['弟弟'], en: ['younger brother', 'little brother', 'kid brother'] },
  'older brother': { zh: ['哥哥'], en: ['older brother', 'big brother', 'elder brother'] },
  'younger sister': { zh: ['妹妹'], en: ['younger sister', 'little sister', 'kid sister'] },
  'older sister': { zh: ['姐姐'], en: ['older sister', 'big sister', 'elder sister'] },
  daughter: { zh: ['女儿', '闺女'], en: ['daughter'] },
  son: { zh: ['儿子'], en: ['son'] },
  coach: { zh: ['教练'], en: ['coach', 'trainer'] },
  therapist: { zh: ['心理医生', '咨询师'], en: ['therapist', 'counselor', 'counsellor'] },
  // A pet is as often called by its breed as by its kind (我家柯基, 那只布偶, my corgi). The index
  // reads no dictionary (the tie must come out the same without one), so the common breeds are
  // written here.
  cat: {
    zh: ['猫', '猫咪', '小猫', '猫猫', '英短', '美短', '布偶', '暹罗', '蓝猫', '狸花', '缅因', '加菲'],
    en: ['cat', 'kitten', 'kitty', 'ragdoll', 'siamese', 'shorthair', 'tabby'],
  },
  dog: {
    zh: [
      '狗',
      '狗狗',
      '小狗',
      '狗子',
      '柯基',
      '泰迪',
      '金毛',
      '哈士奇',
      '二哈',
      '柴犬',
      '拉布拉多',
      '边牧',
      '萨摩耶',
      '比熊',
      '博美',
      '法斗',
      '雪纳瑞',
      '吉娃娃',
      '德牧',
      '阿拉斯加',
      '中华田园犬',
    ],
    en: [
      'dog',
      'puppy',
      'corgi',
      'poodle',
      'husky',
      'retriever',
      'labrador',
      'beagle',
      'shiba',
      'dachshund',
      'chihuahua',
      'pug',
      'samoyed',
      'collie',
      'terrier',
    ],
  },
}

/** The Chinese words a person calls `relation` by (男朋友, 男友 for boyfriend); [] for a relation not listed. */
export function chineseRelationWords(relation: string): readonly string[] {
  return RELATIONS[relation]?.zh ?? []
}

/** Words that name more than one relation when they stand alone: the question may mean either. */
const BROAD: Readonly<Record<string, readonly string[]>> = {
  对象: ['boyfriend', 'girlfriend'],
  // The partner said without a word for which (not 那位 alone: 那位医生; not partner: a business partner).
  我家那位: ['boyfriend', 'girlfriend', 'husband', 'wife'],
  另一半: ['boyfriend', 'girlfriend', 'husband', 'wife'],
  那口子: ['boyfriend', 'girlfriend', 'husband', 'wife'],
  brother: ['younger brother', 'older brother'],
  sister: ['younger sister', 'older sister'],
}

/** The term a memory is given for a tie between `relation` and `name` (as the index holds the name). */
export function aliasTerm(relation: string, name: string): string {
  return `${ALIAS_OPEN}${relation}${ALIAS_CLOSE}${name}`
}

/** The relation and the name of an alias term; undefined for any other term. */
export function readAliasTerm(term: string): { relation: string; name: string } | undefined {
  if (!term.startsWith(ALIAS_OPEN)) return undefined
  const close = term.indexOf(ALIAS_CLOSE, ALIAS_OPEN.length)
  if (close === -1 || close === term.length - 1) return undefined
  return { relation: term.slice(ALIAS_OPEN.length, close), name: term.slice(close + 1) }
}

const escape = (word: string): string => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const CHINESE_WORDS = Object.values(RELATIONS)
  .flatMap((r) => r.zh)
  .sort((a, b) => b.length - a.length)
const FIRST_CHARACTERS = new Set(CHINESE_WORDS.map((w) => w[0]!))
const RELATION_OF_WORD = new Map<string, string>()
for (const [relation, { zh, en }] of Object.entries(RELATIONS)) for (const word of [...zh, ...en]) RELATION_OF_WORD.set(word, relation)

// "My boyfriend Kevin", "my manager at work is called Rachel", "a therapist named Dr. Wen", "a grey
// kitten named Mochi": my, our, or a/an in a sentence the person speaks in (I, I've, we); up to two
// words before the relation, none of them ex, former or late.
const ENGLISH_WORDS = Object.values(RELATIONS)
  .flatMap((r) => r.en)
  .sort((a, b) => b.length - a.length)
const ENGLISH_TIE = new RegExp(
  `\\b([Mm]y|[Oo]ur|[Aa]n?)\\s+(?:(?!(?:ex|former|late|previous)\\b)[a-z]+\\s+){0,2}?(${ENGLISH_WORDS.map(escape).join('|')})(?:\\s+at\\s+work)?,?\\s+(?:(?:is|was)\\s+)?(?:(?:called|named)\\s+)?(?:(?:Dr|Mr|Mrs|Ms|Prof)\\.?\\s+)?([A-Z][a-z]+)\\b`,
  'gu',
)
const TITLES = new Set(['Dr', 'Mr', 'Mrs', 'Ms', 'Miss', 'Prof'])
const SPEAKS_FOR_SELF = /\b(?:I|I['’](?:ve|m|d)|we|We)\b/u

/**
 * The alias terms of a memory: one per tie it states between a relation and a name. `normalized`
 * is the text as the index reads it (simplified, lower case); `original` keeps the capitals the
 * English ties are told by; `nameForm` gives a Latin name as the index holds it (Kevin → kevin).
 * No dictionary is read here (the index never depends on one): the query side drops a name that
 * is a dictionary word (`isPlausibleName`).
 */
export function aliasTermsOf(normalized: string, original: string, nameForm: (name: string) => string): string[] {
  const out = new Set<string>()
  for (const { relation, name } of chineseTies(normalized)) out.add(aliasTerm(relation, /^[a-z]/.test(name) ? nameForm(name) : name))
  for (const match of original.matchAll(ENGLISH_TIE)) {
    const [, owner, word, name] = match
    const relation = RELATION_OF_WORD.get(word!.toLowerCase())
    if (relation === undefined || TITLES.has(name!)) continue
    // "Lisa has a dog named Max" is Lisa's dog; "I adopted a kitten named Mochi" is the person's.
    if (/^an?$/i.test(owner!) && !SPEAKS_FOR_SELF.test(sentenceBefore(original, match.index))) continue
    out.add(aliasTerm(relation, nameForm(name!)))
  }
  return [...out]
}

function sentenceBefore(text: string, at: number): string {
  const head = text.slice(0, at)
  return head.slice(Math.max(head.lastIndexOf('.'), head.lastIndexOf('!'), head.lastIndexOf('?')) + 1)
}

/**
 * 男朋友阿哲, 我的上司陈经理, 弟弟小川在…, 教练叫阿豪, 一只橘猫，叫团子: a relation word the person's own
 * (not another's: 苏苏的新男朋友, 她男朋友, 前男友), then a name of two or three Han characters or a
 * Latin one, right after it or after 叫. Every relation word is looked at, so 男朋友阿哲和闺蜜苏苏 ties both.
 */
function chineseTies(text: string): { relation: string; name: string }[] {
  const out: { relation: string; name: string }[] = []
  for (let at = 0; at < text.length; at++) {
    // Most characters start no relation word: one set look-up, not a comparison with each word.
    if (!FIRST_CHARACTERS.has(text[at]!)) continue
    const word = CHINESE_WORDS.find((w) => text.startsWith(w, at))
    if (word === undefined) continue
    const relation = RELATION_OF_WORD.get(word)!
    const before = text.slice(Math.max(0, at - 3), at)
    const after = text.slice(at + word.length)
    const called = /^[，,]?(?:名字叫|叫做|名叫|叫)/u.exec(after)
    const rest = called === null ? after : after.slice(called[0].length)
    at += word.length - 1
    // A pet is introduced by its name (一只橘猫，叫团子); 猫粮 is no cat called 粮.
    if (!ownRelation(before, PETS.has(relation)) || (called === null && PETS.has(relation))) continue
    const latin = /^[a-z]{2,}/u.exec(rest)
    const name = latin !== null ? latin[0] : chineseName(Array.from(rest.slice(0, 4)))
    if (name !== undefined) out.push({ relation, name })
  }
  return out
}

// What may stand right before the person's own relation word: nothing, a mark, 我 / 我的 / 我家, or a
// word that joins a clause (和闺蜜, 跟男朋友, 请了室友). A name or another's 的 before it makes it theirs.
const BEFORE_PERSON = new Set('和跟与同陪带给请约见找问等让叫被把对向为替是了说及或')
// Before a pet word: its measure word, its colour or its size (一只橘猫, 我家小狗).
const BEFORE_PET = new Set('只隻条條头匹橘黄白黑灰花狸斑奶三小')

function ownRelation(before: string, pet: boolean): boolean {
  if (/(?:^|[^我])的[^的]{0,2}$/u.test(before) || /(?:前任?|[他她它你])$/u.test(before)) return false
  const last = before.slice(-1)
  if (last === '' || !/\p{Script=Han}/u.test(last) || /我的?$|我家$/u.test(before)) return true
  // Where the person met them, or since when (大学室友老邓, 高中同学, 新室友): still the person's own.
  if (!pet && /(?:大学|高中|初中|中学|小学|研究生|公司|单位|[新老])$/u.test(before)) return true
  return pet ? BEFORE_PET.has(last) : BEFORE_PERSON.has(last)
}

/** The name at the front of what follows a relation word: two characters, three for a surname and a given name of two; no function character in it. */
function chineseName(chars: readonly string[]): string | undefined {
  const usable = (c: string | undefined): boolean => c !== undefined && /\p{Script=Han}/u.test(c) && !CHINESE_STOP_WORDS.has(c) && !NOT_IN_NAMES.has(c)
  if (!usable(chars[0]) || !usable(chars[1])) return undefined
  return chars.slice(0, SURNAMES.has(chars[0]!) && usable(chars[2]) ? 3 : 2).join('')
}

const PETS = new Set(['cat', 'dog'])
// Characters that follow a relation word but start no name (verbs, particles and place words of everyday talk).
const NOT_IN_NAMES = new Set(
  '说在去来和跟要想又也都就还会做让给被把从到对很太最刚已不没有今昨上下娘这那一两家们请是的了出煮买吃喝看打开带送回帮养调陪加住搬换拿接过得着',
)
// The commonest Chinese surnames: a name that starts with one may be a full name of three characters (王小明).
const SURNAMES = new Set(
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江尹薛段雷侯龙史陶黎贺顾毛郝龚邵万钱严武戴莫孔汤',
)

/** True when a Chinese name found after a relation word is likely a name: no dictionary headword (小学 after 弟弟, 出差 after 老公), or a pet's (pets are named with words: 团子). */
export function isPlausibleName(relation: string, name: string, isWord: (word: string) => boolean): boolean {
  return PETS.has(relation) || !/^\p{Script=Han}/u.test(name) || !isWord(name)
}

/** The relations a question's word names: 男朋友 → boyfriend, 对象 → boyfriend and girlfriend; [] for any other word. */
export function relationsNamed(word: string): readonly string[] {
  const direct = RELATION_OF_WORD.get(word) ?? RELATION_OF_STEM.get(word)
  return direct !== undefined ? [direct] : (BROAD[word] ?? BROAD_STEMS.get(word) ?? [])
}

/** The English relations of two words (best friend, little brother) in a question's lower-case text, as relation → the word the tokenizer keeps last (friend, brother). */
export function englishRelationPhrases(lower: string): { relation: string; lastWord: string }[] {
  return ENGLISH_PHRASES.filter(({ pattern }) => pattern.test(lower)).map(({ relation, lastWord }) => ({ relation, lastWord }))
}

// Compiled once: every message that reaches the query is looked at for them.
const ENGLISH_PHRASES = [...RELATION_OF_WORD]
  .filter(([phrase]) => phrase.includes(' '))
  .map(([phrase, relation]) => ({ pattern: new RegExp(`\\b${escape(phrase)}\\b`, 'u'), relation, lastWord: stemEnglish(phrase.split(' ').pop()!) }))

const RELATION_OF_STEM = new Map<string, string>()
for (const [word, relation] of RELATION_OF_WORD) if (/^[a-z]+$/.test(word)) RELATION_OF_STEM.set(stemEnglish(word), relation)
const BROAD_STEMS = new Map<string, readonly string[]>()
for (const [word, relations] of Object.entries(BROAD)) if (/^[a-z]+$/.test(word)) BROAD_STEMS.set(stemEnglish(word), relations)
