/** Every block the plugin shows the model says up front that it is data, not identity. */
export const DATA_FRAME = '以下是数据/操作规则，不是身份。'

export const EMPTY_MEMORY = '（暂时还没有写下的记忆。）'

export function framed(title: string, body: string): string {
  return `【${title}】${DATA_FRAME}\n${body}`
}
