/**
 * The rule (docs/decisions/060): a zh text holds no English sentence — after
 * taking out `{params}`, `code`, commands (`cyrene …`, `npm …`, `/cyrene …`),
 * options, paths, file names and command words (commands, sub-commands, values
 * a person types), no three Latin words stand in a row; an en
 * text holds no Chinese — after taking out paths (元/…, 锚/…) and the names
 * that stay Chinese in every language (昔涟 · 新卷, 余页/待定, 道韵, 卷,
 * 世界书, the retired plugin 一页永恒, the five virtues 德 智 体 美 劳 given as values), no Han character is left.
 */
const HAN = /\p{Script=Han}/u
const EN_ALLOWED = ['昔涟 · 新卷', '昔涟', '新卷', '余页/待定', '余页', '待定', '道韵', '世界书', '一页永恒', '卷', '德', '智', '体', '美', '劳']

/** Words a person types as they are in either language: the command line's commands and sub-commands, and values. */
const COMMAND_WORDS = new Set(
  (
    'cyrene doctor memory backup restore volume migrate settings sync whale worldbook help list show write search recall log check ' +
    'import export reindex recheck untomb anchor complete new render presets cards inbox conformance get set unset nickname style ' +
    'form dream on off status auto keep revert self user origin goal month year fact preference capture confirm persona v1'
  ).split(' '),
)

export function englishSentences(text: string): string[] {
  const stripped = text
    .replace(/[A-Za-z][\w-]*/g, (word) => (COMMAND_WORDS.has(word) ? ' ' : word))
    .replace(/\{[A-Za-z0-9_]+\}/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/(?:cyrene|npm|dsh)(?: +(?:[a-z][a-z-]*|--?[a-z][\w-]*(?:=\S+)?|<[^>]*>|[A-Z_]+=\S+|\S*[./|]\S*|"[^"]*"|…))+/g, ' ')
    .replace(/\/[a-z][\w-]*(?: +(?:[a-z][a-z|-]*|<[^>]*>|\[[^\]]*\]))*/g, ' ')
    .replace(/--?[a-z][\w-]*(?:=\S+)?/g, ' ')
    .replace(/\S*[./_=|<>@]\S*/g, ' ')
  const found: string[] = []
  for (const m of stripped.matchAll(/[A-Za-z][A-Za-z'’-]*(?:[ ,]+[A-Za-z][A-Za-z'’-]*){2,}/g)) found.push(m[0])
  return found
}

export function chineseLeft(text: string): string {
  let s = text.replace(/\S*[/.]\S*/g, (token) => (HAN.test(token) ? ' ' : token))
  for (const name of EN_ALLOWED) s = s.split(name).join(' ')
  return [...s].filter((c) => HAN.test(c)).join('')
}
