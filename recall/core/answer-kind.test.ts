import { describe, expect, it } from 'vitest'
import { askedKind, holdsAnswer, isNumberTerm } from './answer-kind.ts'
import { normalizeText } from './normalize.ts'
import { RecallIndex } from './recall-index.ts'
import { tokenize } from './tokenize.ts'

const NOW = new Date('2026-06-15T12:00:00Z')
const AT = '2026-01-01T00:00:00Z'
const kindOf = (q: string): string | undefined => askedKind(normalizeText(q))
const noName = (): boolean => false

describe('askedKind: the answers a memory’s words can show', () => {
  it('reads a name, a brand, a sum, an age and a weekday in Chinese, traditional folded, and English', () => {
    expect(kindOf('我的狗叫什么名字？')).toBe('name')
    expect(kindOf('我家貓叫什麼？')).toBe('name')
    expect(kindOf("What's my cat's name?")).toBe('name')
    expect(kindOf('我的车是什么牌子？')).toBe('brand')
    expect(kindOf('What brand are my running shoes?')).toBe('brand')
    expect(kindOf('房租一个月多少钱？')).toBe('price')
    expect(kindOf('How much did my new phone cost?')).toBe('price')
    expect(kindOf('外婆几岁了？')).toBe('age')
    expect(kindOf('How old is my cat?')).toBe('age')
    expect(kindOf('陶艺课在星期几？')).toBe('weekday')
  })

  it('reads a birthday’s date: a day of the year that no memory’s own date is', () => {
    for (const q of [
      '朵朵生日是哪天？',
      '团子是哪天生日啊？',
      '妈妈几月几号过生日？',
      '團子是哪天生的？',
      "When's Rachel's birthday?",
      'When was my daughter born?',
    ])
      expect({ q, kind: kindOf(q) }).toEqual({ q, kind: 'birthday' })
    for (const q of ['生日那天去哪玩了？', 'What did I give my grandmother for her ninetieth birthday?', '我是哪年去的北京？'])
      expect({ q, kind: kindOf(q) }).toEqual({ q, kind: undefined })
  })

  it('reads a blood type, a height, a weight, a colour and a password; not a fever’s 多高 nor where a password is kept', () => {
    const cases: [string, string | undefined][] = [
      ['我妈是什么血型来着', 'bloodType'],
      ["What's my blood type?", 'bloodType'],
      ['我对象陈默多高啊', 'height'],
      ['How tall is my brother?', 'height'],
      ['我现在体重多少？', 'weight'],
      ['How much does my dog weigh?', 'weight'],
      ['她的新车是什么颜色的？', 'colour'],
      ['What colour is my sofa?', 'colour'],
      ['家里wifi密码是多少', 'password'],
      ["what's our home wifi password", 'password'],
      ['我的密码存在哪里？', undefined],
      ['上次发烧烧到多高？', undefined],
      ['我爸血压多高？', undefined],
    ]
    for (const [q, kind] of cases) expect({ q, kind: kindOf(q) }).toEqual({ q, kind })
  })

  it('asks nothing of how many, how long or when: those are counted over memories or read from their dates', () => {
    for (const q of [
      'How many hikes have I been on?',
      'How long have I been surfing?',
      '我去过几次上海？',
      '我什么时候搬的家？',
      'When did I move?',
      '我喜欢什么花？',
    ])
      expect({ q, kind: kindOf(q) }).toEqual({ q, kind: undefined })
  })
})

describe('holdsAnswer: a memory’s terms against the kind asked', () => {
  const terms = (text: string): string[] => tokenize(text)

  it('a name is a naming word or a word the caller takes for a name', () => {
    expect(holdsAnswer('name', terms('我养了一只叫团子的橘猫'), noName)).toBe(true)
    expect(holdsAnswer('name', terms('a grey kitten named Mochi'), noName)).toBe(true)
    expect(holdsAnswer('name', terms('我怕狗，小时候被咬过'), noName)).toBe(false)
    expect(holdsAnswer('name', terms('we adopted Mochi'), (t) => t === 'mochi')).toBe(true)
  })

  it('a sum is a number beside money, or a number no size is written in', () => {
    expect(holdsAnswer('price', terms('月租三千二'), noName)).toBe(true)
    expect(holdsAnswer('price', terms('I owe Susu 600 yuan'), noName)).toBe(true)
    expect(holdsAnswer('price', terms('九块钱'), noName)).toBe(true)
    expect(holdsAnswer('price', terms('My new running shoes are size 38'), noName)).toBe(false)
    expect(holdsAnswer('price', terms('换了新手机'), noName)).toBe(false)
  })

  it('an age is a number said as one; a weekday is a day of the week', () => {
    for (const text of ['外婆九十大寿', '我养了一只橘猫，叫团子，三岁', '朵朵今年四岁了', 'Mochi is two years old', 'she turned 30 last week'])
      expect({ text, held: holdsAnswer('age', terms(text), noName) }).toEqual({ text, held: true })
    // A count or a size is no age.
    for (const text of ['外婆身体很好', '土豆这几天拉肚子，吃了两包零食', 'I walk Potato 2 times a day'])
      expect({ text, held: holdsAnswer('age', terms(text), noName) }).toEqual({ text, held: false })
    expect(holdsAnswer('weekday', terms('报了陶艺课，每周三晚上'), noName)).toBe(true)
    expect(holdsAnswer('weekday', terms('yoga on Thursdays'), noName)).toBe(true)
    expect(holdsAnswer('weekday', terms('陶艺课做了一对杯子'), noName)).toBe(false)
  })

  it('a number one looks up (a plate, a phone) is three digits or more, or letters and digits together', () => {
    for (const q of ['我车牌号多少来着？', '我妈电话号码是多少？', "What's my licence plate number?"])
      expect({ q, kind: kindOf(q) }).toEqual({ q, kind: 'number' })
    expect(kindOf('我的密码存在哪里？')).toBeUndefined()
    for (const text of ['车牌是粤A·12345', 'my plate is B7X 2K9', '妈的手机号 138 0013 8000'])
      expect({ text, held: holdsAnswer('number', terms(text), noName) }).toEqual({ text, held: true })
    for (const text of ['买了一辆白色的比亚迪', 'Got a plate through the EV quota'])
      expect({ text, held: holdsAnswer('number', terms(text), noName) }).toEqual({ text, held: false })
  })

  it('a birthday is a day of the year: a month, a day of the month, a lunar month, a year', () => {
    for (const text of [
      '我的生日是四月七号',
      '妈妈生日是农历八月十五',
      '生日在12月20日',
      "Mom's birthday is on March 3rd",
      'Tuanzi was born in 2021',
      '外婆腊月生日',
    ])
      expect({ text, held: holdsAnswer('birthday', terms(text), noName) }).toEqual({ text, held: true })
    for (const text of ['三十岁生日，阿哲做了一桌菜', '生日那天去了舟山', 'a cake for her ninetieth birthday'])
      expect({ text, held: holdsAnswer('birthday', terms(text), noName) }).toEqual({ text, held: false })
  })

  it('a blood type, a height, a weight, a colour and a password, as a memory says them', () => {
    const held = (kind: Parameters<typeof holdsAnswer>[0], text: string) => ({ text, held: holdsAnswer(kind, terms(text), noName) })
    for (const text of ['我是O型血', '妈妈血型是AB型', 'My blood type is A+', "I'm O negative", '我是熊猫血'])
      expect(held('bloodType', text)).toEqual({ text, held: true })
    for (const text of ['今天去医院验血了', 'blood test came back fine']) expect(held('bloodType', text)).toEqual({ text, held: false })
    for (const text of ['陈默身高一米八三', 'he is 183cm', 'Tom is tall, about six feet', '个子不高，一米六'])
      expect(held('height', text)).toEqual({ text, held: true })
    for (const text of ['陈默是做游戏策划的', '他高中在青岛上的']) expect(held('height', text)).toEqual({ text, held: false })
    for (const text of ['体重掉到了65公斤', '瘦了五斤', 'I weigh 70kg now']) expect(held('weight', text)).toEqual({ text, held: true })
    expect(held('weight', '跑了五公里')).toEqual({ text: '跑了五公里', held: false })
    for (const text of ['新车是白色的', 'a dark green Civic', '头发染成了灰蓝']) expect(held('colour', text)).toEqual({ text, held: true })
    expect(held('colour', '买了一辆比亚迪')).toEqual({ text: '买了一辆比亚迪', held: false })
    for (const text of ['WiFi密码是abc12345', 'the wifi password is sunflower2024', 'door code: zq4471'])
      expect(held('password', text)).toEqual({ text, held: true })
    expect(held('password', '家里换了新路由器')).toEqual({ text: '家里换了新路由器', held: false })
  })

  it('numbers in digits, Chinese and English words', () => {
    for (const t of ['38', '九', '十', '两', 'twelv', 'twenti', 'half']) expect({ t, n: isNumberTerm(t) }).toEqual({ t, n: true })
    for (const t of ['猫', 'cat', 'day']) expect({ t, n: isNumberTerm(t) }).toEqual({ t, n: false })
  })
})

describe('RecallIndex with abstainAnswerKind: the memories about a question hold no answer of its kind', () => {
  const store = new RecallIndex({ abstainAnswerKind: true })
  const texts = [
    '我怕狗，小时候被邻居家的狼狗咬过小腿。',
    '我养了一只橘猫，叫团子，三岁。',
    '弟弟小川在成都读大二，学的是土木工程。',
    '换了一部新手机，屏幕大了很多。',
    '报了一个陶艺课，每周三晚上。',
    '周末去爬山，天气很好。',
    '新换的牙医是王医生，很耐心。',
  ]
  texts.forEach((text, i) => store.add({ id: `m${i}`, text, at: AT, source: 'entry' }))

  it('says nothing about a dog’s name when the dog memory names none, and says why', () => {
    const answer = store.explain('我的狗叫什么名字？', { now: NOW })
    expect(answer.hits).toEqual([])
    expect(answer.silence?.reason).toBe('no-answer')
    expect(answer.silence?.needed).toBeUndefined()
    expect(store.explain('我的狗叫什么名字？', { now: NOW, abstain: false }).hits[0]?.id).toBe('m0')
  })

  it('is on by default (decision 059), and off on request: then the dog memory comes back', () => {
    const plain = new RecallIndex()
    texts.forEach((text, i) => plain.add({ id: `m${i}`, text, at: AT, source: 'entry' }))
    expect(plain.explain('我的狗叫什么名字？', { now: NOW }).silence?.reason).toBe('no-answer')
    const off = new RecallIndex({ abstainAnswerKind: false })
    texts.forEach((text, i) => off.add({ id: `m${i}`, text, at: AT, source: 'entry' }))
    expect(off.search('我的狗叫什么名字？', { now: NOW })[0]?.id).toBe('m0')
  })

  it('finds the cat’s name, and a price-less phone is no price', () => {
    expect(store.search('我的猫叫什么？', { now: NOW })[0]?.id).toBe('m1')
    expect(store.explain('我的新手机多少钱？', { now: NOW }).silence?.reason).toBe('no-answer')
    expect(store.search('陶艺课是星期几？', { now: NOW })[0]?.id).toBe('m4')
  })

  // Each case: memories about the question that hold no answer of its kind (silent), then one that does (found first).
  it.each([
    {
      why: 'a name the question says is not its answer: the guesthouse in 安吉 is not called 安吉',
      without: ['我们在安吉的民宿住了两晚，到处都是竹子。', '订好了去安吉的高铁票。'],
      question: '我们在安吉住的那家民宿叫什么名字？',
      answer: '安吉那家民宿叫竹云山房。',
    },
    {
      why: 'an age is not any count in the memories about the pet',
      without: ['土豆这几天拉肚子，一天吃了两包零食。', '家里那只柯基叫土豆。'],
      question: '土豆今年几岁了？',
      answer: '土豆今年三岁了，还是很皮。',
    },
    {
      why: 'a birthday’s date is not a birthday celebrated',
      without: ['朵朵五岁生日，在家里吃了蛋糕。', '朵朵上幼儿园了，在门口哭。'],
      question: '朵朵生日是哪天？',
      answer: '朵朵的生日是三月五号。',
    },
    {
      why: 'a birthday’s date is in a memory about whose birthday it is, not in a trip booked for October',
      // 朵朵 in many memories weighs little: the flights share as much with the question (天 → day, 哪天 a time).
      without: [
        '朵朵今天第一天上幼儿园，在门口哭。',
        'Booked flights for October: four days, three of us.',
        '朵朵已经能从1数到100了。',
        '跨年夜朵朵九点就睡了。',
        '朵朵学会了骑自行车。',
        '带朵朵去公园放风筝。',
        '朵朵感冒了，咳嗽。',
        '朵朵画了一只猫。',
        '周末陪朵朵去游泳。',
      ],
      question: '朵朵生日是哪天？',
      answer: '朵朵的生日是三月五号。',
    },
  ])('$why', ({ without, question, answer }) => {
    const memories = new RecallIndex({ abstainAnswerKind: true })
    without.forEach((text, i) => memories.add({ id: `w${i}`, text, at: AT, source: 'entry' }))
    expect(memories.explain(question, { now: NOW }).silence?.reason).toBe('no-answer')
    memories.add({ id: 'answer', text: answer, at: AT, source: 'entry' })
    expect(memories.search(question, { now: NOW })[0]?.id).toBe('answer')
  })

  it('a person’s name is not asked for by kind: it is often written bare (a relative, or anyone WordNet calls a person)', () => {
    expect(store.search('我弟弟叫什么？', { now: NOW })[0]?.id).toBe('m2')
    expect(store.search('我的牙医叫什么名字？', { now: NOW })[0]?.id).toBe('m6')
  })

  it('any English word could be a name (the index keeps no capitals; Mochi is in the dictionary too)', () => {
    const english = new RecallIndex({ abstainAnswerKind: true })
    english.add({ id: 'e0', text: 'We adopted a kitten from the shelter, Mochi.', at: AT, source: 'entry' })
    expect(english.search("What's my kitten's name?", { now: NOW })[0]?.id).toBe('e0')
  })
})
