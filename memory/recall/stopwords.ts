// Small on purpose: only words that appear in nearly every message and carry no
// topic. Anything a person might actually ask about ("home", "work", "猫") stays.

export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'if', 'of', 'to', 'in', 'on', 'at', 'by', 'for', 'with',
  'from', 'as', 'into', 'about', 'is', 'am', 'are', 'was', 'were', 'be', 'been', 'being', 'do',
  'does', 'did', 'have', 'has', 'had', 'i', 'me', 'my', 'you', 'your', 'he', 'him', 'his', 'she',
  'her', 'it', 'its', 'we', 'us', 'our', 'they', 'them', 'their', 'this', 'that', 'these',
  'those', 'there', 'what', 'which', 'who', 'whom', 'how', 'when', 'where', 'why', 'so', 'than', 'too', 'very', 'just',
  'can', 'will', 'would', 'should', 'could', 'not', 'no', 'yes', 'oh', 'im', "i'm", "it's",
  "don't", 'hey', 'also', 'any', 'some', 'all',
])

export const CHINESE_STOP_WORDS: ReadonlySet<string> = new Set([
  '的', '了', '是', '在', '和', '与', '也', '都', '就', '还', '又', '很', '吗', '呢', '吧', '啊',
  '呀', '哦', '嗯', '着', '过', '把', '被', '让', '给', '这', '那', '个', '我', '你', '他', '她',
  '它', '们', '么', '怎', '哪', '我们', '你们', '他们', '她们', '这个', '那个', '一个', '什么', '怎么', '就是', '还是',
  '但是', '因为', '所以', '然后', '如果', '已经', '没有', '有',
])
