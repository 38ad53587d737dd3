// A scripted offline model for trying 昔涟 without a key (npm start -- --offline).
// It is no language model, but it shows the whole loop: it answers in the language the
// person wrote in (a message without words: in the language DSH web shows) and by the nickname rail 120 gives; 记住 / remember calls memory_write;
// a question is answered from what the plugin put in front of it (the first 【记忆命中】
// hit, else a line of {{cyrene_memory}}'s 【近来】 about the same thing); the night's
// dream writes a scripted journal through memory_dream_journal.
import { appendFileSync } from 'node:fs'
import { CallId, LlmAdapter } from '@deepseek-ai/dsh-llm'

export const name = 'cyrene-demo-model'
export const inject = ['llm']

const REMEMBER = /^(?:请\s*)?(?:记住|remember)\s*[:：,，、]?\s*/i
const RECALL_HEADER = '【记忆命中】'
// npm run persona:ab -- --judge asks with this first line (persona-ab/judge.ts JUDGE_MARK).
const JUDGE_MARK = '【persona A/B 评审】'
const JUDGE_CRITERIA = ['in_character', 'warmth_without_flattery', 'honest_about_memory', 'five_virtues', 'follows_request']
const HIT_LINE = /^- \d{4}-\d{2}-\d{2} (.+)$/m

const textOf = (message) =>
  Array.isArray(message?.content)
    ? message.content
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join('')
    : ''

const answer = (text) => [
  { type: 'block-start', index: 0, blockType: 'text' },
  { type: 'text-delta', index: 0, text },
  { type: 'block-end', index: 0, block: { type: 'text', text } },
  { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } },
  { type: 'finish', reason: { kind: 'stop' } },
]

const toolCall = (id, tool, args) => {
  const json = JSON.stringify(args)
  return [
    { type: 'block-start', index: 0, blockType: 'tool-call' },
    { type: 'tool-call-delta', index: 0, id: CallId(id), name: tool, argumentsDelta: json },
    { type: 'block-end', index: 0, block: { type: 'tool-call', id: CallId(id), name: tool, arguments: json } },
    { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } },
    { type: 'finish', reason: { kind: 'tool-calls' } },
  ]
}

/** The first memory hit injected since the person's latest message, without its date. */
function firstHit(messagesSinceUser) {
  for (const message of messagesSinceUser) {
    const text = textOf(message)
    if (!text.includes(RECALL_HEADER)) continue
    const line = HIT_LINE.exec(text.slice(text.indexOf(RECALL_HEADER)))
    if (line) return line[1].trim()
  }
  return undefined
}

/** Characters too common to tell what a message is about (a Chinese question shares them with anything). */
const STOP_HAN = new Set(
  '我你他她它们的了是在有和与就都也很吗呢吧啊呀么什怎哪谁叫今天昨明年月日时好做喜欢想要会能去来说这那个一些上下不没还再又把被给让对从到里得着过',
)
const STOP_EN = new Set(
  'the and you your are was were what which who how does did have has had that this with for from about tell name called named remember like'.split(' '),
)

/** What a text is about: its uncommon Han characters and Latin words of three letters or more. */
function pieces(text) {
  const out = new Set()
  for (const ch of text.match(/\p{Script=Han}/gu) ?? []) if (!STOP_HAN.has(ch)) out.add(ch)
  for (const word of text.toLowerCase().match(/[a-z]{3,}/g) ?? []) if (!STOP_EN.has(word)) out.add(word.replace(/'s$/, ''))
  return out
}

/** A line of {{cyrene_memory}}'s recent days (【近来】) that is about what the person said. */
function recentLine(system, said) {
  const at = system.indexOf('【近来】')
  if (at === -1) return undefined
  const wanted = pieces(said)
  for (const line of system.slice(at).split('\n').slice(1)) {
    const m = HIT_LINE.exec(line)
    if (m === null) break
    if ([...pieces(m[1])].some((p) => wanted.has(p))) return m[1].trim()
  }
  return undefined
}

const DEFAULT_NICKNAME = '伙伴'
/**
 * The person's language, from what they said: any Chinese character makes it Chinese, any other
 * letter English; a message without words (emoji, a number, punctuation) is answered in the
 * language DSH web shows (decision 077).
 */
const languageOf = (said, shown) => (/\p{Script=Han}/u.test(said) ? 'zh' : /\p{L}/u.test(said) ? 'en' : shown)

const isLang = (value) => value === 'zh' || value === 'en'
// Where the plugin keeps the language the page reported, on DSH's root context (its panel/locale.ts).
const PAGE_LOCALE = Symbol.for('dsh-cyrene-philia093-0.pageLocale')

/**
 * The language DSH web shows, by the plugin's rule (its runtime/lang.ts, CONTRACT#languages): the
 * choice stored in DSH's settings, else the language the page reported, else the process's
 * LC_ALL / LC_MESSAGES / LANG, else Chinese. Anything unreadable decides nothing.
 */
export function shownLanguage(ctx, env = process.env) {
  let stored
  try {
    stored = ctx.get('settings')?.get('locale')?.preference
  } catch {
    stored = undefined
  }
  if (isLang(stored)) return stored
  const reported = ctx.root?.[PAGE_LOCALE]?.get?.()
  if (isLang(reported)) return reported
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[name]?.trim()
    if (value === undefined || value === '') continue
    const primary = value.toLowerCase().split(/[_.@-]/)[0]
    return isLang(primary) ? primary : 'zh'
  }
  return 'zh'
}

/** The nickname rail 120 puts in front of the model (称呼对方「…」): the latest one, as an older step's rail may carry an older name. */
function nicknameIn(system, messages) {
  for (const text of [...messages.map(textOf).reverse(), system]) {
    const all = [...text.matchAll(/称呼对方「([^」\n]{1,40})」/g)]
    if (all.length > 0) return all[all.length - 1][1]
  }
  return undefined
}

/** A name a memory gives to what the question asks about ("叫团子", "called Tuanzi"). */
function nameIn(memory) {
  return /叫(?:做|作)?([^\s的，。,.!！?？、「」]{1,6}?)(?:的|，|。|,|$)/.exec(memory)?.[1] ?? /\b(?:called|named)\s+([A-Z][\w-]*)/.exec(memory)?.[1]
}

const asksName = (said) => /叫什么|名字|what(?:'s| is)\b.*\b(?:name|called)|\bname\b/i.test(said)

/** Her answer from a memory put in front of her: the name when the question asks for one, and where she has it from. */
function fromMemory(lang, said, memory, where, nick) {
  const name = asksName(said) ? nameIn(memory) : undefined
  if (lang === 'zh') {
    const head = name ? `是${name}呀${nick ? `，${nick}` : ''}——` : `我记得哦${nick ? `，${nick}` : ''}——`
    return `${head}你跟我说过「${memory}」。（演示模型：这句来自${where === 'hit' ? '注入的记忆命中' : '最近的记忆'}。）`
  }
  const head = name ? `It’s ${name}${nick ? `, ${nick}` : ''} — ` : `I remember${nick ? `, ${nick}` : ''} — `
  return `${head}you told me “${memory}”. (Demo model: this comes from ${where === 'hit' ? 'the memory hits put in front of me' : 'my recent memories'}.)`
}

const WORDS = {
  zh: {
    kept: (nick) => `好${nick ? `，${nick}` : ''}，我记下了，写进了今天的日档。下次你提起，我会想起来的♪`,
    pending: () => '我先把它放进了「余页/待定」，等复检时再看看。',
    idle: (nick) => `嗯，我在听哦${nick ? `，${nick}` : ''}。（这是离线演示模型：接上真正的模型后我会好好回答。试试说「记住：……」，再换个说法问问我。）`,
    reason: '对方亲口请我记住的事',
  },
  en: {
    kept: (nick) => `Got it${nick ? `, ${nick}` : ''}: I wrote that into today’s page. Mention it again and I will remember ♪`,
    pending: () => 'I put it in the pending pages for now; the next check will look at it again.',
    idle: (nick) =>
      `I’m listening${nick ? `, ${nick}` : ''}. (This is the offline demo model: with a real model I would answer properly. Try “remember: …”, then ask me about it in other words.)`,
    reason: 'the person asked me to remember this',
  },
}

/** DSH asks the default model for a session title too: a few words of the person's first message will do. */
function titleRequest(messages) {
  const ask = messages.find((m) => m.source?.plugin === 'dsh-session-title-llm')
  if (ask === undefined) return undefined
  const said = /"text":"((?:[^"\\]|\\.)*)"/.exec(textOf(ask))?.[1] ?? ''
  return [...said.replace(REMEMBER, '')].slice(0, 16).join('') || '和昔涟聊天'
}

/** Tools the model already called in this request's history. */
const calledTools = (messages) =>
  new Set(
    messages
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b) => b.type === 'tool-call')
      .map((b) => b.name),
  )

/**
 * The night's dream (night/): a scripted journal through memory_dream_journal, in her words
 * (a few words of each memory of the brief, never a copy of one), then the month and year echoes
 * the brief asks for, then a last word.
 */
function dreamTurn(messages, toolNames) {
  const brief = textOf(messages[0])
  const memories = [...brief.matchAll(/^- \[[^\]]+\](?: \([^)]*\))? (.+)$/gm)].map((m) => m[1].trim())
  const done = calledTools(messages)
  // The journal is in the language most of the memories are in: the person's.
  const zh = memories.length === 0 || memories.filter((m) => /\p{Script=Han}/u.test(m)).length * 2 >= memories.length
  if (!done.has('memory_dream_journal') && toolNames.includes('memory_dream_journal')) {
    const glimpses = memories.slice(0, 5).map((m) => (zh ? `「${[...m].slice(0, 8).join('')}…」` : `“${m.split(/\s+/).slice(0, 4).join(' ')}…”`))
    let text
    if (zh)
      text =
        memories.length === 0
          ? '今夜很安静，没有新的记忆。我在涟漪里等你下一次开口。（演示模型写的梦志）'
          : `今夜回看了 ${memories.length} 条记忆。梦里浮起几片涟漪：${glimpses.join('、')}。它们都还温温的，我会好好收着，等你下次提起。（演示模型写的梦志）`
    else
      text = `Tonight I looked back on ${memories.length} ${memories.length === 1 ? 'memory' : 'memories'}. A few ripples rose in the dream: ${glimpses.join(', ')}. They are still warm; I will keep them until you bring them up again. (A journal written by the demo model.)`
    return { call: { tool: 'memory_dream_journal', args: { text } } }
  }
  for (const kind of ['month', 'year']) {
    const asked = new RegExp(`memory_dream_echo（kind: ${kind}）写 (\\S+) 的`).exec(brief)
    const echoed = messages.some((m) =>
      (Array.isArray(m.content) ? m.content : []).some(
        (b) => b.type === 'tool-call' && b.name === 'memory_dream_echo' && String(b.arguments).includes(`"${kind}"`),
      ),
    )
    if (asked && !echoed && toolNames.includes('memory_dream_echo')) {
      const text =
        kind === 'month' ? `${asked[1]} 的月响：这个月写下了 ${memories.length} 条记忆。（演示模型）` : `${asked[1]} 的年轮：今年的第一圈。（演示模型）`
      return { call: { tool: 'memory_dream_echo', args: { kind, text } } }
    }
  }
  return { text: zh ? '梦做完了。' : 'The dream is done.' }
}

/** What the demo does for one request: the tool call to make, or the text to answer. */
export function demoTurn(messages, toolNames, system = '', shown = 'zh') {
  const title = titleRequest(messages)
  if (title !== undefined) return { text: title }
  if (messages[0]?.source?.plugin === 'cyrene-dream') return dreamTurn(messages, toolNames)
  // Tool results may travel as user-side messages too: the person's message is the last one with text.
  const lastUser = messages.findLastIndex((m) => m.source?.kind === 'user' && textOf(m).trim() !== '')
  const said = lastUser === -1 ? '' : textOf(messages[lastUser]).trim()
  const since = messages.slice(lastUser + 1)
  const toolResult = since.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b) => b.type === 'tool-result')
  if (said.startsWith(JUDGE_MARK)) {
    // No language model can judge here: the same middle score for both, and it says so.
    const scores = Object.fromEntries(JUDGE_CRITERIA.map((c) => [c, 3]))
    return { text: JSON.stringify({ A: scores, B: scores, reasoning: '离线演示模型不会评审：两边都是固定的 3 分。' }) }
  }
  const lang = languageOf(said, shown)
  const words = WORDS[lang]
  // The runtime's default nickname is Chinese (runtime/index.ts `defaultNickname`); an English reply leaves it out.
  const found = nicknameIn(system, messages)
  const nick = lang === 'en' && found === DEFAULT_NICKNAME ? undefined : found
  const remember = REMEMBER.exec(said)
  if (remember && toolResult !== undefined) return { text: JSON.stringify(toolResult).includes('已写入日档') ? words.kept(nick) : words.pending() }
  const what = remember ? said.slice(remember[0].length).trim() : ''
  if (what !== '' && toolNames.includes('memory_write')) {
    return { call: { tool: 'memory_write', args: { text: what, kind: 'note', axis: '德', reason: words.reason } } }
  }
  const hit = firstHit(since)
  if (hit !== undefined) return { text: fromMemory(lang, said, hit, 'hit', nick) }
  const recent = recentLine(system, said)
  if (recent !== undefined) return { text: fromMemory(lang, said, recent, 'recent', nick) }
  return { text: words.idle(nick) }
}

class DemoModel extends LlmAdapter {
  /** The language DSH web shows, read at each request (set by apply). */
  shown = () => 'zh'
  resolveModel(provider, model) {
    return Promise.resolve({ provider, id: model, name: model })
  }
  async *stream(options) {
    // CYRENE_DEMO_LOG=<file> keeps what 昔涟 sent the model, one JSON line per request (to look at, and for the start test).
    const log = process.env.CYRENE_DEMO_LOG
    if (log)
      appendFileSync(
        log,
        JSON.stringify({ system: options.system ?? '', messages: options.messages ?? [], tools: (options.tools ?? []).map((t) => t.name) }) + '\n',
      )
    const turn = demoTurn(
      options.messages ?? [],
      (options.tools ?? []).map((t) => t.name),
      options.system ?? '',
      this.shown(),
    )
    const chunks = turn.call ? toolCall(`demo-${Date.now()}`, turn.call.tool, turn.call.args) : answer(turn.text)
    for (const chunk of chunks) yield chunk
  }
}

export function apply(ctx) {
  const model = new DemoModel()
  model.shown = () => shownLanguage(ctx)
  ctx.llm.registerAdapter(['cyrene-demo'], model)
}
