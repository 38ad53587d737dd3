import { describe, expect, it } from 'vitest'
import { fakeDictionary } from './testing/fake-dictionary.ts'
import { resolveOptions } from './options.ts'
import { buildQuery, dictionaryJoins, isLightTerm, recutWords, tableJoins, topicCore, type TermLookup } from './query.ts'
import { RecallIndex } from './recall-index.ts'

/** An index that holds exactly these terms, each in `df` documents of `docCount`. */
function lookup(terms: Record<string, number>, docCount = 100): TermLookup & { term(id: number): string } {
  const names = Object.keys(terms)
  return {
    termId: (term) => (names.includes(term) ? names.indexOf(term) : undefined),
    documentFrequency: (id) => terms[names[id]!] ?? 0,
    term: (id) => names[id]!,
    docCount,
  }
}

const dictionary = fakeDictionary

describe('topicCore: a word without the function words at its edges', () => {
  it('drops a pronoun in front, a particle behind, a frame word of a non-word, and a word made only of them', () => {
    expect(topicCore('我爸')).toBe('爸')
    expect(topicCore('学的')).toBe('学')
    // 猫叫 is no dictionary word: the segmenter's 猫 + 叫 (a frame: "is called").
    expect(topicCore('猫叫', () => false)).toBe('猫')
    expect(topicCore('什么时候')).toBe('')
    expect(topicCore('喜欢')).toBe('')
    expect(topicCore('猫')).toBe('猫')
  })

  it('keeps a dictionary word whose first or last character is also a stop character (过 of 过敏)', () => {
    const words = new Set(['过敏', '在乎'])
    const isWord = (w: string): boolean => words.has(w)
    expect(topicCore('过敏', isWord)).toBe('过敏')
    expect(topicCore('在乎', isWord)).toBe('在乎')
    // Not a dictionary word: a segmentation of 在 + 学, and 去过 (去 is light).
    expect(topicCore('在学', isWord)).toBe('学')
    expect(topicCore('去过', isWord)).toBe('')
  })
})

describe('light words: searched, but not what a message is about', () => {
  it('question frames in both languages, after stemming', () => {
    for (const t of ['like', 'name', 'ever', 'favourit', '名字', '喜欢', '叫', '会']) expect(isLightTerm(t), t).toBe(true)
    for (const t of ['cat', 'tea', '猫', '茶', '钢琴']) expect(isLightTerm(t), t).toBe(false)
  })

  it('an English light word is no topic; its translation ranks at half a topic translation, never for abstention', () => {
    const index = lookup({ 喜欢: 30, 辣: 1, like: 5 })
    const dict = dictionary({ 喜欢: ['like'], 辣: ['hot'] })
    const q = buildQuery('Do I ever like it hot?', index, resolveOptions(), () => dict)
    expect(q.groups.map((g) => g.term)).toEqual(['hot'])
    expect(q.groups[0]!.alternatives.map((id) => index.term(id))).toEqual(['辣'])
    const weight = Object.fromEntries(q.terms.map((t) => [index.term(t.id), t.weight]))
    // hot is unknown here, so its translation weighs as the word (untranslatedFullWeight); like's is below.
    expect(weight).toEqual({ like: 1, 辣: 1, 喜欢: 0.8 * 0.5 })
  })

  it('a Chinese translation’s everyday synonyms search below it, as an English translation’s do (mortgage → 按揭 → 房贷)', () => {
    const index = lookup({ 房贷: 2, 按揭: 1 })
    const dict = dictionary({ 按揭: ['mortgag'] })
    const q = buildQuery('How much is the mortgage each month?', index, resolveOptions(), () => dict)
    const weight = Object.fromEntries(q.terms.map((t) => [index.term(t.id), t.weight]))
    expect(weight['按揭']).toBe(1)
    expect(weight['房贷']).toBe(0.8 * 0.5)
    expect(q.groups.find((g) => g.term === 'mortgag')!.alternatives.map((id) => index.term(id))).toContain('房贷')
  })

  it('an English word’s synonym widening stops at as many translations as it searches (ZH_KEPT), however many the dictionary has', () => {
    // Six translations, none held, each with an everyday synonym that is: only the first four widen.
    const index = lookup({ 姥姥: 1, 姥爷: 1, 祖母: 1, 祖父: 1, 哥哥: 1, 姐姐: 1 })
    const dict = dictionary({ 外婆: ['elder'], 外公: ['elder'], 奶奶: ['elder'], 爷爷: ['elder'], 哥: ['elder'], 姐: ['elder'] })
    const searched = buildQuery('my elder', index, resolveOptions(), () => dict).terms.map((t) => index.term(t.id))
    expect(searched.filter((term) => term !== 'elder').sort()).toEqual(['姥姥', '姥爷', '祖母', '祖父'].sort())
  })

  it('a word no memory holds takes the dictionary’s detour (writer → 作者 → author → 作家); a word the store holds does not', () => {
    const dict = dictionary({ 作者: ['author', 'writer'], 作家: ['author'] })
    const unheld = lookup({ 作家: 2 })
    expect(buildQuery('my favourite writer', unheld, resolveOptions(), () => dict).terms.map((t) => unheld.term(t.id))).toContain('作家')
    const held = lookup({ 作家: 2, writer: 3 })
    expect(buildQuery('my favourite writer', held, resolveOptions(), () => dict).terms.map((t) => held.term(t.id))).not.toContain('作家')
  })

  it('a Chinese phrase read from its pieces is translated word by word, each word weighing one word (每个月: every, month)', () => {
    const index = lookup({ everi: 3, month: 5 })
    const dict = dictionary({ 每个月: ['everi', 'month'] })
    const q = buildQuery('每个月要还多少？', index, resolveOptions(), () => dict)
    const weight = Object.fromEntries(q.terms.map((t) => [index.term(t.id), t.weight]))
    expect(weight['everi']).toBe(1)
    expect(weight['month']).toBe(1)
  })

  it('a translation that is a stop or light word where it lands is not searched (walk → 散步, not go → 去)', () => {
    const index = lookup({ 散步: 2, 去: 40 })
    const dict = dictionary({ 散步: ['walk'], 去: ['walk'] })
    const q = buildQuery('a long walk', index, resolveOptions(), () => dict)
    const searched = q.terms.map((t) => index.term(t.id))
    expect(searched).toContain('散步')
    expect(searched).not.toContain('去')
  })

  it('a Chinese question is judged by its content words: 我爸 → 爸, 我的猫叫什么 → 猫', () => {
    const index = lookup({ 爸: 3, 猫: 4, 叫: 20 })
    const dict = dictionary({ 猫: ['cat'], 爸: ['dad'] })
    expect(buildQuery('我爸叫什么？', index, resolveOptions(), () => dict).groups.map((g) => g.term)).toEqual(['爸'])
    // 是做什么的 names its topic by the frame alone (asked-topics.ts): 工作 is asked about too.
    expect(buildQuery('我爸是做什么的？', index, resolveOptions(), () => dict).groups.map((g) => g.term)).toEqual(['工作', '爸'])
    expect(buildQuery('我的猫叫什么？', index, resolveOptions(), () => dict).groups.map((g) => g.term)).toEqual(['猫'])
  })
})

describe('abstention weighs a translation by how specific it is in the store', () => {
  const NOW = new Date('2026-06-01T00:00:00Z')
  const at = '2026-01-01T00:00:00Z'
  // Every memory says "work": its translation 工作 says nothing about which one is meant.
  const texts = [
    'Work was long today; the printer jammed twice.',
    'After work I bought a new umbrella.',
    'Rachel at work prefers email to chat.',
    'Work trip to Ningbo next month.',
    'I finished the slides at work.',
    'Work lunch: noodles again.',
    'My cat Mochi sleeps on my work bag.',
  ]

  it('a question whose only tie to the store is a translation every memory holds gets nothing; with the rule off it would', () => {
    const index = new RecallIndex()
    texts.forEach((text, i) => index.add({ id: `e${i}`, text, at, source: 'entry' }))
    expect(index.search('我妹妹在哪里工作？', { now: NOW })).toEqual([])
    expect(index.search('我妹妹在哪里工作？', { now: NOW, abstain: false }).length).toBeGreaterThan(0)
    // A specific translation still answers across languages.
    expect(index.search('我的猫叫什么？', { now: NOW })[0]?.id).toBe('e6')
  })
})

describe('abstention in the first hour: a store of one memory', () => {
  it('answers a question that shares one word with its only memory and names something it never saw (晚上)', () => {
    const index = new RecallIndex()
    index.add({ id: 'walk', text: '我喜欢在深夜散步。', at: '2026-01-01T00:00:00Z', source: 'entry' })
    expect(index.search('我晚上喜欢做什么？散步吗', { now: new Date('2026-01-02T00:00:00Z') }).map((h) => h.id)).toEqual(['walk'])
    expect(index.search('我的钢琴是什么牌子？', { now: new Date('2026-01-02T00:00:00Z') })).toEqual([])
  })
})

describe('everyday synonyms (synonyms.ts): a memory worded in another word of the same thing', () => {
  const at = '2026-01-01T00:00:00Z'
  const now = new Date('2026-06-15T12:00:00Z')
  const store = (options = {}): RecallIndex => {
    const index = new RecallIndex(options)
    index.add({ id: 'partner', text: '男朋友是做摄影的，工作室在西溪那边。', at, source: 'entry' })
    index.add({ id: 'sleep', text: '最近老是失眠，凌晨三点还醒着。', at, source: 'entry' })
    index.add({ id: 'tea', text: '下午和同事喝了一壶乌龙茶。', at, source: 'entry' })
    return index
  }

  it('finds 男朋友 for 我对象, and 失眠 for 睡得好不好', () => {
    expect(store().search('我对象是干什么的？', { now })[0]?.id).toBe('partner')
    expect(store().search('我睡得好不好？', { now })[0]?.id).toBe('sleep')
  })

  it('a synonym searches below the word itself, and synonymWeight 0 turns them off', () => {
    const { terms } = buildQuery('我对象是干什么的', lookup({ 对象: 2, 男朋友: 2 }), resolveOptions(), () => null)
    // Term ids of the lookup: 对象 0, 男朋友 1.
    expect(terms).toEqual([
      { id: 0, weight: 1 },
      { id: 1, weight: resolveOptions().synonymWeight },
    ])
    // Not 是干什么的: its frame asks about 工作 (asked-topics.ts), which 工作室 holds.
    expect(store().search('我对象怎么样了？', { now, abstain: false })[0]?.id).toBe('partner')
    expect(store({ synonymWeight: 0 }).search('我对象怎么样了？', { now, abstain: false })[0]?.id).not.toBe('partner')
  })
})

describe('a detour through the dictionary (pivot.ts) for a word whose translations no memory holds', () => {
  const dict = dictionary({ 作者: ['author', 'writer'], 作家: ['author'], 撰稿人: ['writer'], 猫: ['cat'], 猫咪: ['cat', 'kitty'], 咪: ['kitty'] })

  it('writer finds 作家 (CC-CEDICT: author) below a direct translation, standing for the word in abstention', () => {
    const index = lookup({ 作家: 1 })
    const q = buildQuery('Who is my favourite writer?', index, resolveOptions(), () => dict)
    const writer = q.groups.find((g) => g.term === 'writer')!
    expect(writer.alternatives.map((id) => index.term(id))).toEqual(['作家'])
    expect(q.terms).toEqual([{ id: 0, weight: resolveOptions().pivotWeight }])
    expect(buildQuery('Who is my favourite writer?', index, resolveOptions({ pivotWeight: 0 }), () => dict).terms).toEqual([])
  })

  it('is not taken when a direct translation is held (cat → 猫, not kitty → 咪)', () => {
    const index = lookup({ 猫: 3, 咪: 1 })
    const searched = buildQuery('my cat', index, resolveOptions(), () => dict).terms.map((t) => index.term(t.id))
    expect(searched).toEqual(['猫'])
  })
})

describe('a word the segmenter does not know, read whole (decision 049)', () => {
  const dict = dictionary({ 仓鼠: ['hamster'], 车贷: ['car', 'loan'] })

  it('joins characters the segmenter left apart when the dictionary holds them as one word, longest first', () => {
    expect(dictionaryJoins([['我', '有', '没有', '养', '过', '仓', '鼠']], dict)).toEqual([{ word: '仓鼠', parts: ['仓', '鼠'] }])
    expect(dictionaryJoins([['我的', '车', '贷', '还', '剩', '多少']], dict)).toEqual([{ word: '车贷', parts: ['车', '贷'] }])
    // A word the segmenter knew, or characters the dictionary does not join, stay as they are.
    expect(dictionaryJoins([['喜欢', '吃', '辣']], dict)).toEqual([])
  })

  it('asks about the word, not its characters: a hamster is no mouse, a car loan no car', () => {
    const index = lookup({ 鼠: 2, 车: 3 })
    const groups = (q: string): string[] => buildQuery(q, index, resolveOptions({}), () => dict).groups.map((g) => g.term)
    expect(groups('我有没有养过仓鼠？')).toContain('仓鼠')
    expect(groups('我有没有养过仓鼠？')).not.toContain('鼠')
    expect(groups('我的车贷还剩多少？')).not.toContain('车')
  })

  it('the words that name the kind of answer (星期几, 多少钱, 几岁) are not what the message is about', () => {
    const index = lookup({ 星期: 2, 钱: 2, 课: 2 })
    const terms = buildQuery('陶艺课在星期几？花了多少钱？', index, resolveOptions({}), () => dict).groups.map((g) => g.term)
    expect(terms).toContain('课')
    expect(terms).not.toContain('星期')
    expect(terms).not.toContain('钱')
    // Traditional characters are folded first: 星期幾 is 星期几.
    expect(buildQuery('陶藝課在星期幾？', index, resolveOptions({}), () => dict).groups.map((g) => g.term)).not.toContain('星期')
  })

  it('a second cut, read from the end, finds a word the segmenter straddled (上|回升|职 holds 升职)', () => {
    const cuts = dictionary({ 升职: ['get', 'promot'], 上回: ['last', 'time'], 回升: ['rise'], 工资: ['wage'] })
    expect(recutWords([['上', '回升', '职'], ['工资']], cuts)).toEqual([
      { word: '升职', segments: ['回升', '职'] },
      { word: '上回', segments: ['上', '回升'] },
    ])
    // A word the segmenter cut the same way is not read twice, nor one inside a single segment.
    expect(recutWords([['上回', '升职']], cuts)).toEqual([])
    expect(recutWords([['上回升职']], cuts)).toEqual([])
    const index = lookup({ promot: 1, rise: 1 })
    const built = buildQuery('上回升职，工资涨了几个点？', index, resolveOptions({}), () => cuts)
    const promoted = built.terms.find((t) => index.term(t.id) === 'promot')
    expect(promoted?.weight).toBeGreaterThan(0)
    expect(built.groups.find((g) => g.term === '职')?.alternatives).toContain(index.termId('promot'))
  })

  it('joins the segments of a word our own tables hold (心理|医生, 咨询|师), longest first', () => {
    expect(tableJoins([['我在', '看', '心理', '医生', '吗']])).toEqual([{ word: '心理医生', parts: ['心理', '医生'] }])
    expect(tableJoins([['咨询', '师', '姓', '什么']])).toEqual([{ word: '咨询师', parts: ['咨询', '师'] }])
    expect(tableJoins([['喜欢', '喝', '茶']])).toEqual([])
    const index = lookup({ 心理医生: 1 })
    expect(buildQuery('我在看心理医生吗？', index, resolveOptions({}), () => null).groups.map((g) => g.term)).toContain('心理医生')
  })
})
