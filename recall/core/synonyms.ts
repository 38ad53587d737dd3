// Everyday Chinese says one thing in several words: a person writes 男朋友 and asks about
// 我对象, writes 失眠 and asks 我睡得好不好. CC-CEDICT (bilingual.ts) translates between
// the languages but links no two Chinese words, and the characters and pairs the tokenizer
// adds find only words that share a character (猫 in 橘猫). This small hand-made table
// closes the gap for the words of a personal life: family, partners, pets, health, sleep,
// work, home, money, meals, travel. Written from common usage, not from any test set: each
// line is a set of words a person uses for the same thing (or a kind and one of its everyday
// instances, 宠物 ~ 猫), simplified (both sides are folded before they get here).
//
// The query side only (query.ts): a synonym searches like a translation, below the word
// itself, and stands for the word in abstention as much as it is specific in this store.

const GROUPS: readonly (readonly string[])[] = [
  // family
  ['妈', '妈妈', '母亲', '老妈', '娘'],
  ['爸', '爸爸', '父亲', '老爸', '爹'],
  ['外婆', '姥姥'],
  ['外公', '姥爷'],
  ['奶奶', '祖母'],
  ['爷爷', '祖父'],
  ['哥', '哥哥'],
  ['姐', '姐姐'],
  ['弟', '弟弟'],
  ['妹', '妹妹'],
  ['女儿', '闺女'],
  ['儿子', '小子'],
  ['孩子', '小孩', '娃'],
  ['爸妈', '父母', '家长'],
  ['亲戚', '家人', '家里人'],
  ['宝宝', '婴儿'],
  ['岳母', '丈母娘'],
  ['岳父', '老丈人'],
  ['室友', '舍友'],
  ['邻居', '街坊'],
  ['同学', '同窗'],
  // partners
  ['对象', '男朋友', '女朋友', '男友', '女友'],
  ['老公', '丈夫', '先生'],
  ['老婆', '妻子', '太太', '媳妇'],
  ['结婚', '婚礼', '成家'],
  ['分手', '分开'],
  // friends and work
  ['朋友', '好友', '闺蜜', '哥们'],
  ['同事', '同僚'],
  ['老板', '领导', '上司', '主管'],
  ['工作', '上班', '职业', '干活'],
  ['公司', '单位'],
  ['工资', '薪水', '薪资', '收入'],
  ['涨薪', '加薪', '涨工资'],
  ['辞职', '离职', '跳槽'],
  ['裁员', '裁人'],
  ['出差', '公干'],
  ['面试', '应聘'],
  ['开会', '会议'],
  ['升职', '晋升', '升迁'],
  ['客户', '甲方'],
  ['实习', '实习生'],
  // pets
  ['猫', '猫咪', '喵', '小猫'],
  ['狗', '狗狗', '小狗'],
  ['兔', '兔子'],
  ['鱼', '金鱼'],
  ['鸟', '鹦鹉'],
  // a kind beside each of its instances, not the instances beside each other (a dog is no cat)
  ['宠物', '猫'],
  ['宠物', '狗'],
  // health
  ['药', '药物', '吃药', '服药', '药片'],
  ['医生', '大夫'],
  ['医院', '诊所'],
  ['看病', '就医', '看医生'],
  ['生病', '病', '不舒服', '毛病'],
  ['头疼', '头痛'],
  ['肚子疼', '胃疼', '肚子痛'],
  ['发烧', '发热'],
  ['受伤', '伤', '摔'],
  ['牙', '牙齿'],
  ['眼睛', '视力', '近视'],
  ['体检', '检查'],
  ['过敏', '敏感'],
  ['减肥', '瘦身', '体重'],
  ['锻炼', '运动', '健身'],
  ['心理医生', '心理咨询师', '心理咨询'],
  ['老毛病', '慢性病', '旧病', '病根'],
  ['哮喘', '气喘'],
  ['感冒', '着凉'],
  ['咳嗽', '咳'],
  ['胃病', '胃炎'],
  ['手术', '开刀'],
  ['住院', '入院'],
  ['打针', '注射'],
  ['牙医', '看牙', '口腔科'],
  ['怀孕', '怀上', '有喜'],
  ['复健', '康复', '理疗'],
  ['跑步', '慢跑'],
  // sleep and mood
  ['睡', '睡觉', '睡眠', '入睡', '失眠'],
  ['累', '疲惫', '疲劳'],
  ['焦虑', '紧张', '压力'],
  ['难过', '伤心', '不开心'],
  ['开心', '高兴', '快乐'],
  ['生气', '发火', '恼火'],
  ['害怕', '怕', '恐惧'],
  ['想念', '思念', '惦记'],
  ['做梦', '梦见', '梦'],
  ['抑郁', '情绪低落'],
  // home and money
  ['房租', '月租', '租金'],
  ['房子', '住处', '公寓'],
  ['搬家', '搬'],
  ['钱', '花费', '费用'],
  ['存钱', '储蓄', '攒钱'],
  ['买', '购买', '入手'],
  ['手机', '电话'],
  ['电脑', '笔记本'],
  ['卧室', '房间'],
  ['装修', '翻新'],
  ['贷款', '房贷'],
  ['贷款', '车贷'],
  ['租房', '租'],
  ['买房', '购房'],
  ['小区', '社区'],
  ['股票', '炒股', '股市'],
  ['基金', '理财'],
  ['保险', '投保'],
  ['借钱', '借款'],
  ['还钱', '还款'],
  ['价格', '价钱', '售价'],
  // meals
  ['吃饭', '用餐', '就餐'],
  ['早饭', '早餐'],
  ['午饭', '午餐'],
  ['晚饭', '晚餐'],
  ['饭店', '餐厅', '馆子'],
  ['零食', '小吃'],
  ['饮料', '喝的'],
  ['茶', '茶叶'],
  ['咖啡', '拿铁'],
  ['喝酒', '酒', '饮酒'],
  ['辣', '辣椒', '吃辣'],
  ['甜食', '甜点', '甜品'],
  ['水果', '果子'],
  ['外卖', '点外卖'],
  ['做饭', '下厨', '煮饭', '烧饭'],
  // travel and going about
  ['旅游', '旅行', '出游'],
  ['假期', '放假', '休假'],
  ['地铁', '轨道交通'],
  ['开车', '驾车'],
  ['车', '汽车', '轿车'],
  ['坐车', '通勤'],
  ['飞机', '航班'],
  ['火车', '高铁'],
  ['火车', '动车'],
  ['公交', '公交车', '巴士'],
  ['出租车', '打车', '的士'],
  ['骑车', '自行车', '单车'],
  ['酒店', '宾馆', '旅馆'],
  ['海边', '海滩', '沙滩'],
  ['爬山', '登山'],
  ['出国', '国外'],
  // study and pastime
  ['学', '学习', '上课'],
  ['爱好', '兴趣'],
  ['看书', '读书', '阅读'],
  ['电影', '片子'],
  ['歌', '歌曲'],
  ['拍照', '摄影'],
  ['礼物', '送'],
  ['生日', '过生日', '寿辰'],
  ['研究生', '读研', '硕士'],
  ['乐器', '钢琴'],
  ['乐器', '吉他'],
  ['乐器', '小提琴'],
  ['弹琴', '钢琴'],
  ['画画', '绘画'],
  ['陶艺', '陶瓷', '做陶', '拉坯'],
  ['游戏', '打游戏', '玩游戏'],
  ['追剧', '电视剧'],
  ['展览', '看展'],
  ['书', '小说'],
  // the days of the week, in the three ways people say them
  ['星期一', '周一', '礼拜一'],
  ['星期二', '周二', '礼拜二'],
  ['星期三', '周三', '礼拜三'],
  ['星期四', '周四', '礼拜四'],
  ['星期五', '周五', '礼拜五'],
  ['星期六', '周六', '礼拜六'],
  ['星期天', '星期日', '周日', '礼拜天', '礼拜日'],
  ['周末', '双休'],
]

/** Each word of the groups → the other words of every group it is in, in table order (the English table builds the same way). */
export function synonymTable(groups: readonly (readonly string[])[]): ReadonlyMap<string, readonly string[]> {
  const map = new Map<string, string[]>()
  for (const group of groups)
    for (const word of group) {
      const list = map.get(word) ?? []
      for (const other of group) if (other !== word && !list.includes(other)) list.push(other)
      map.set(word, list)
    }
  return map
}

const TABLE = synonymTable(GROUPS)

/** The other words of the groups `word` belongs to (simplified), in table order; [] when it is in none. */
export function colloquialSynonyms(word: string): readonly string[] {
  return TABLE.get(word) ?? []
}
