import Schema from '@deepseek-ai/schemastery'
import { MAX_SCHEDULED_SESSIONS, NIGHT_TIME } from '../memory/person.ts'

/** Every tunable of the night (row `cyrene-host`, key `dream`). */
export interface DreamConfig {
  enabled: boolean
  /** Local time the night starts, HH:MM. */
  at: string
  maxScheduledSessions: number
  /** Presets whose root sessions take part (Cyrene's). */
  presets: string[]
  /** A sleeping timer looks again at least this often, so a clock that jumps is noticed. */
  maxWakeMinutes: number
  maxCatchUpDays: number
  maxEntries: number
  maxPending: number
  journalMaxChars: number
  /** Model calls in one dream at most (each tool result is answered by one more call). */
  maxRounds: number
  /** Consecutive failed month checks before a pending entry becomes a tombstone. */
  maxFailedMonths: number
  /** Sightings of sessions (new ones, the person's last line) are written together after this long. */
  registryFlushMs: number
  /** Used when no registered session recorded a model route. */
  provider: string
  model: string
}

export const DreamConfig: Schema<DreamConfig> = Schema.object({
  enabled: Schema.boolean().default(true).description('夜梦总开关（关 = 不排程、不补梦；/dream 仍可手动）'),
  // One rule with 元/settings.json's dream.time / dream.maxScheduledSessions (memory/settings.ts), which win when set.
  at: NIGHT_TIME.description('每晚统合梦的本地时间（HH:MM）'),
  maxScheduledSessions: MAX_SCHEDULED_SESSIONS.description('最多为几个启用的会话挂每日任务（1–64）'),
  presets: Schema.array(Schema.string()).default(['chat', 'cyrene-work']).description('哪些预设的会话登记进夜梦'),
  maxWakeMinutes: Schema.natural().min(1).default(10).description('计时器最长睡多久再看一次时钟（分钟）'),
  maxCatchUpDays: Schema.natural().min(1).default(7).description('DSH 没运行时错过的夜，下次启动一次补梦最多覆盖几天'),
  maxEntries: Schema.natural().default(30).description('一夜梦里最多带几条当天记忆'),
  maxPending: Schema.natural().default(30).description('一夜梦里最多带几条待定（最旧的先）'),
  journalMaxChars: Schema.natural().min(1).default(6000).description('一次写梦志的上限（字）'),
  maxRounds: Schema.natural().min(1).default(8).description('一次夜梦最多几轮模型调用'),
  maxFailedMonths: Schema.natural().min(1).default(3).description('连续几次月检未通过后归档为可恢复的墓碑'),
  registryFlushMs: Schema.natural().default(1500).description('登记表（最近一句等）合并写入的延迟（毫秒）'),
  provider: Schema.string().default('').description('没有会话记下模型时用的 provider（空 = 不做梦，doctor 说明）'),
  model: Schema.string().default('').description('没有会话记下模型时用的 model'),
})
