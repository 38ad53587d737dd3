// A question can name its topic only by how it asks. 我是干什么的 and "what do I do for a living"
// ask about a job without any word of work in them, and every word they have is a stop word: the
// search had nothing to look for. Each frame here says which word it stands for; the word is then
// searched like one the person wrote, with its synonyms and translations.

/** A frame, the word it asks about, and words that already say it (上班 in 在哪上班、做啥的); tested on the message folded (simplified, lower case). */
const FRAMES: readonly (readonly [RegExp, string, RegExp])[] = [
  // 是干什么的, 做啥的, 干哪行, 做咩工: the occupation, not an errand (去北京干什么 has no 的 after it).
  [/(?:干|做)(?:什么|啥|甚么|咩)(?:工作|工)?的|(?:干|做)(?:哪|边|邊)行|做咩工/, '工作', /工作|上班|职业|干活|打工|\b(?:job|work)/],
  // "What does Kevin do?" ends there: "what do I do at work" says its topic.
  [/\bfor a living\b|\bwhat (?:do|does) (?:i|you|he|she|they|\w+) do\??$/, 'job', /\b(?:job|work|career|occupation|profession)|工作|上班/],
]

/** The words `folded` asks about only by its frame (我是干什么的 → 工作), none already in it. */
export function impliedTopics(folded: string): string[] {
  const out: string[] = []
  for (const [frame, word, said] of FRAMES) if (frame.test(folded) && !said.test(folded)) out.push(word)
  return out
}
