// English and Chinese. t(key, values) gives the text of the current language ({name} filled
// in); elements written in index.html carry data-i18n (their text), data-i18n-title and
// data-i18n-placeholder. The choice is remembered in localStorage.

import { TILE_NAMES } from "./tiles.js";

const STORE = "mjfast-language";

const TEXT = {
  en: {
    review_pick: "Review a game…", review_title: "a log file (Botzone's JSON match log, a Tziakcha session or the text format): its games, reviewed decision by decision",
    review_game: "Game",
    review_open: "Open the review of {match} ({decisions} decisions) ↗",
    tab_advice: "Advice", tab_calc: "Fan calculator", other_language: "中文", language_title: "切换到中文",
    keys_title: "Keys (?)", slow: "Working… a hand far from ready or a game's review takes seconds (the first request after a fresh install compiles mjfast's kernels: minutes, once).",
    seat_wind: "Seat wind", prevalent_wind: "Prevalent wind", flowers: "Flowers", fan_aware: "count the 8-fan minimum",
    seen: "Seen elsewhere (discards, other players' melds)", seen_placeholder: "e.g. 1s1s4s [EEE2]", clear: "Clear",
    undo: "Undo", redo: "Redo", undo_title: "Undo the last step (u)", redo_title: "Redo (r)",
    share: "Link to this hand", share_title: "This page's address shows the same hand: copy it to share",
    claim_title: "A tile another player discards", claim_tile: "Tile", claim_from: "From", claim_ask: "Advise the claim",
    claim_needs_13: "A claim is decided with 13 tiles in hand, before your draw: enter a hand of 13 tiles.",
    claim_unavailable: "claim advice is not available in this version", claim_none: "No options.",
    winning_tile: "Winning tile", self_drawn: "self-drawn (自摸)", discarded_by: "discarded by",
    last_copy: "last copy (和绝张)", kong: "kong (杠上开花 / 抢杠和)", last_tile: "last tile (妙手回春 / 海底捞月)",
    ruleset: "Ruleset", preset: "Preset", minimum: "Minimum", settlement: "Settlement",
    offline: "works offline: everything comes from this mjfast", keys: "Keys",
    key_slash: "type a hand (Enter analyses it)", key_rows: "pick a discard", key_draws: "pick the tile it draws",
    key_enter: "play it: discard, draw, advise again", key_undo: "undo, redo a step", key_deal: "deal a random hand",
    key_views: "advice, fan calculator", key_lang: "中文 / English", key_help: "these keys", close: "Close",
    hand: "Hand", hand_label: "Hand: type it (any notation mjfast reads) or click the tiles below",
    hand_placeholder: "e.g. [123m1]456p789s1357sE", analyse: "Advise", score: "Score", deal: "Random deal",
    tiles_count: "{n} tiles", tiles_more: "{n} tiles: {more} more to go", hand_full: "The hand is full: take a tile out first.",
    mode_tile: "Tile", mode_chow: "Chow", mode_pung: "Pung", mode_kong: "Kong", mode_concealed: "Concealed kong",
    concealed_kong: "concealed kong", claimed_first: "claimed: first", claimed_middle: "claimed: middle",
    claimed_last: "claimed: last", from_left: "from left", from_across: "from across", from_right: "from right",
    target_hand: "Clicks add to: the hand", target_seen: "Clicks add to: seen elsewhere", remove: "click to take it out",
    step: "step {n}", wind_E: "East", wind_S: "South", wind_W: "West", wind_N: "North",
    shanten_win: "a win", shanten_ready: "ready", shanten_n: "{n}-shanten",
    summary_drawn: "{hand}: {shanten}", summary_waiting: "{hand}: {shanten}, {acc} useful tiles ({kinds} kinds)",
    summary_ready: "{hand}: ready, {acc} winning tiles unseen", win_now: "This hand is a win.",
    score_it: "Score it in the fan calculator", waits_fans: "Waits and their fans on a discard win:",
    useful_now: "Useful tiles:", forms: "Shanten by form:", form_regular: "regular", form_seven_pairs: "seven pairs",
    form_thirteen_orphans: "thirteen orphans", form_honors_knitted: "honours and knitted",
    form_knitted_straight: "knitted straight",
    play_hint: "Click a useful tile or a wait to discard this and draw that, then see the advice again.",
    field_rank: "#", field_tile: "Discard", field_win_probability: "Win chance", field_expected_score: "Expected score",
    field_effective_shanten: "Shanten (8 fans)", field_shanten: "Shanten", field_valid_acceptance: "Reach 8 fans",
    field_acceptance: "Acceptance", field_useful_kinds: "Kinds", field_next_valid_acceptance: "Next (8 fans)",
    field_next_acceptance: "Next", field_useful: "Useful tiles (unseen copies)", field_waits: "Waits (fans: discard / self-drawn)",
    field_valid_draws: "Draws that reach 8 fans",
    about_effective_shanten: "Shanten counting the 8-fan minimum: a ready hand none of whose waits reaches 8 fans is a step away",
    about_valid_acceptance: "Unseen copies of the waits (ready) or draws (one step away) that reach 8 fans",
    about_acceptance: "Unseen copies of the useful tiles (the discarded tile counts as seen)",
    about_next_acceptance: "Acceptance after the next useful draw and the best discard, averaged over the draws",
    about_next_valid_acceptance: "The same for the copies that reach 8 fans",
    about_win_probability: "Chance to win the hand after this discard", about_expected_score: "Points expected after this discard",
    not_worked_out: "not worked out: it does not decide the ranking", points: "{n} points", percent: "{n}%", yes: "yes", no: "no",
    reason_base: "Discard {tile}: it leaves the hand {shanten} with {acc} useful tiles ({kinds} kinds)",
    reason_valid: ", {valid} of them reach 8 fans",
    reason_ready: "Discard {tile}: ready, waiting on {waits}: {acc} tiles unseen",
    reason_ready_valid: ", {valid} of them win with 8 fans or more",
    reason_value: "Discard {tile}: {figures}", reason_value_vs: "{other}: {figures}",
    value_win: "a {p} chance to win", value_score: "{e} points expected",
    reason_only: "It is the only discard.",
    reason_effective: "The next best, {other}, leaves it {shanten} counting the 8-fan minimum.",
    reason_shanten: "The next best, {other}, leaves it {shanten}.",
    reason_more_valid: "The next best, {other}, has {n} that reach 8 fans.",
    reason_more_acceptance: "The next best, {other}, has {n} useful tiles.",
    reason_more_next_valid: "The next best, {other}, ties on those; one draw on, it keeps {a} tiles that reach 8 fans against {b}.",
    reason_more_next: "The next best, {other}, ties on those; one draw on, it has {a} useful tiles on average against {b}.",
    reason_further: "The next best, {other}, ties on these figures; what decides is further down mjfast's ranking: the fans the waits score, the chances at bigger fans, then the less useful tile to keep.",
    stop: ".", gap: " ",
    reason_tie: "The next best, {other}, ties on every figure: {tile} is the less useful tile to keep (honours go first, then terminals, then 2 and 8).",
    score_summary: "{total} fans", score_flowers: " ({flowers} of them flowers)",
    meets: "meets the minimum of {min}: a legal win", below: "below the minimum of {min}: not a legal win",
    fan_cn: "中文", fan_en: "Fan", fan_points: "Points", fan_count: "×", fan_total: "Total",
    not_scored: "{what} was asked but not scored (the judge's correction: the hand contradicts it).",
    need_14: "Enter 14 tiles counting melds, the winning tile last (or choose the best of its tiles), to see its fans.",
    waits_13: "Waiting on: ", no_waits_13: "This hand of 13 tiles is not ready.",
    seat: "Seat", role: "", delta: "Score change", winner: "winner", discarder: "discarder",
    preset_judge: "Botzone judge (default)", preset_strict_1998: "strict 1998 rules", preset_custom: "custom",
    preset_tziakcha: "Tziakcha (雀渣) / GB-Mahjong", preset_wmo2014: "WMO rules (2014)",
    rule_mixed_kongs_five: "one concealed + one exposed kong score 明暗杠 5",
    rule_mixed_kongs_six: "one concealed + one exposed kong score 双明杠 4 + 暗杠 2 (WMO)",
    rule_wait_in_last_set: "the winning tile completes the last set of its kind, and scores its wait (GB-Mahjong)",
    best_tile: "the best of its tiles", best_tile_scored: "Scored with the best of its tiles as the winning tile: {tile}.",
    rule_knitted_body_waits: "a wait inside the knitted straight still scores 边张/坎张/单钓将",
    rule_concealed_forms_fully_concealed: "concealed forms self-drawn score 不求人 (not 自摸)",
    rule_formal_waits: "a tile held four times still counts as a wait",
    rule_seven_pairs_tile_fans: "七对 combines with 绿一色, 字一色, 全大, ...",
    rule_voided_suit_with_big_fans: "缺一门 adds to 大三元, 一色四同顺, ...",
    rule_all_terminals_triple_pung: "清幺九 may add 三同刻",
    network: "No answer from mjfast ({message}): is `mjfast web` still running?", copied: "Link copied",
  },
  zh: {
    review_pick: "复盘一局…", review_title: "对局记录文件（Botzone 的 JSON 对局记录、雀渣牌谱或文本格式）：逐个决策复盘其中的对局",
    review_game: "第几局",
    review_open: "打开 {match} 的复盘（{decisions} 个决策）↗",
    tab_advice: "牌理", tab_calc: "算番器", other_language: "English", language_title: "Switch to English",
    keys_title: "快捷键 (?)", slow: "计算中… 离听牌较远的手牌或整局复盘需要几秒（新装后第一次请求会编译 mjfast 的内核：仅一次，需几分钟）。",
    seat_wind: "门风", prevalent_wind: "圈风", flowers: "花牌", fan_aware: "计入8番起和",
    seen: "场上已见（弃牌、他家副露）", seen_placeholder: "如 1s1s4s [EEE2]", clear: "清空",
    undo: "撤销", redo: "重做", undo_title: "撤销上一步 (u)", redo_title: "重做 (r)",
    share: "本手牌的链接", share_title: "本页地址即可复现此手牌：复制即可分享",
    claim_title: "他家打出的牌", claim_tile: "牌", claim_from: "来自", claim_ask: "吃碰建议",
    claim_needs_13: "吃碰在摸牌前以13张手牌判断：请输入13张的手牌。",
    claim_unavailable: "此版本没有吃碰建议", claim_none: "没有可选项。",
    winning_tile: "和牌张", self_drawn: "自摸", discarded_by: "点和者",
    last_copy: "和绝张", kong: "杠上开花 / 抢杠和", last_tile: "妙手回春 / 海底捞月",
    ruleset: "规则", preset: "预设", minimum: "起和番", settlement: "结算",
    offline: "离线可用：一切来自本机 mjfast", keys: "快捷键",
    key_slash: "输入手牌（回车分析）", key_rows: "选择打哪张", key_draws: "选择摸到哪张",
    key_enter: "执行：打出、摸牌、再分析", key_undo: "撤销、重做一步", key_deal: "随机发牌",
    key_views: "牌理、算番器", key_lang: "中文 / English", key_help: "本帮助", close: "关闭",
    hand: "手牌", hand_label: "手牌：输入（mjfast 认识的任何写法）或点击下方的牌",
    hand_placeholder: "如 [123m1]456p789s1357sE", analyse: "分析", score: "算番", deal: "随机",
    tiles_count: "{n}张", tiles_more: "{n}张：还差{more}张", hand_full: "手牌已满：请先拿掉一张。",
    mode_tile: "单张", mode_chow: "吃", mode_pung: "碰", mode_kong: "明杠", mode_concealed: "暗杠",
    concealed_kong: "暗杠", claimed_first: "吃第一张", claimed_middle: "吃中间张", claimed_last: "吃第三张",
    from_left: "上家", from_across: "对家", from_right: "下家",
    target_hand: "点击加入：手牌", target_seen: "点击加入：场上已见", remove: "点击拿掉",
    step: "第{n}步", wind_E: "东", wind_S: "南", wind_W: "西", wind_N: "北",
    shanten_win: "和牌", shanten_ready: "听牌", shanten_n: "{n}向听",
    summary_drawn: "{hand}：{shanten}", summary_waiting: "{hand}：{shanten}，进张{kinds}种{acc}枚",
    summary_ready: "{hand}：听牌，和张余{acc}枚", win_now: "这手牌已经和了。",
    score_it: "去算番器算番", waits_fans: "听的牌及点和番数：",
    useful_now: "有效牌：", forms: "各牌型向听数：", form_regular: "一般型", form_seven_pairs: "七对",
    form_thirteen_orphans: "十三幺", form_honors_knitted: "全不靠", form_knitted_straight: "组合龙",
    play_hint: "点击有效牌或听的牌：打出这张、摸到那张，再看建议。",
    field_rank: "#", field_tile: "打", field_win_probability: "和牌率", field_expected_score: "期望得分",
    field_effective_shanten: "向听（8番）", field_shanten: "向听", field_valid_acceptance: "达8番",
    field_acceptance: "进张", field_useful_kinds: "种", field_next_valid_acceptance: "下一步（8番）",
    field_next_acceptance: "下一步", field_useful: "有效牌（余枚）", field_waits: "听牌（番：点和 / 自摸）",
    field_valid_draws: "能达8番的进张",
    about_effective_shanten: "计入8番起和的向听：听牌但所有和张都不到8番，算一向听",
    about_valid_acceptance: "能达到8番的和张（听牌）或进张（一向听）的未见枚数",
    about_acceptance: "有效牌的未见枚数（打出的牌算已见）", about_next_acceptance: "摸到有效牌并打出最佳牌后的平均进张",
    about_next_valid_acceptance: "同上，只计能达8番的", about_win_probability: "打这张后的和牌率",
    about_expected_score: "打这张后的期望得分",
    not_worked_out: "未计算：不影响排序", points: "{n}分", percent: "{n}%", yes: "是", no: "否",
    reason_base: "打{tile}：{shanten}，进张{kinds}种{acc}枚", reason_valid: "，其中{valid}枚能达8番",
    reason_ready: "打{tile}：听{waits}，余{acc}枚", reason_ready_valid: "，其中{valid}枚和了能达8番",
    reason_value: "打{tile}：{figures}", reason_value_vs: "{other}：{figures}",
    value_win: "和牌率{p}", value_score: "期望{e}分",
    reason_only: "只有这一种打法。",
    reason_effective: "次选{other}计入8番起和是{shanten}。", reason_shanten: "次选{other}是{shanten}。",
    reason_more_valid: "次选{other}能达8番的只有{n}枚。", reason_more_acceptance: "次选{other}进张只有{n}枚。",
    reason_more_next_valid: "次选{other}前几项相同；再摸一张后，能达8番的进张{a}枚对{b}枚。",
    reason_more_next: "次选{other}前几项相同；再摸一张后，平均进张{a}枚对{b}枚。",
    reason_further: "次选{other}这些数字相同；由 mjfast 排序的后几项决定：和张的番数、做大番的机会，最后是更不值得留的牌。",
    stop: "。", gap: "",
    reason_tie: "次选{other}各项都相同：{tile}是更不值得留的牌（先打字牌，再打幺九，再打二八）。",
    score_summary: "{total}番", score_flowers: "（其中花牌{flowers}番）",
    meets: "达到{min}番起和：可以和牌", below: "不到{min}番起和：不能和牌",
    fan_cn: "番种", fan_en: "English", fan_points: "番数", fan_count: "×", fan_total: "合计",
    not_scored: "勾选了{what}但未计（裁判的修正：手牌与之矛盾）。",
    need_14: "输入14张（副露算3张），和牌张写在最后（或选“最优的一张”），即可算番。",
    waits_13: "听：", no_waits_13: "这13张还没有听牌。",
    seat: "座位", role: "", delta: "得失", winner: "和牌者", discarder: "点和者",
    preset_judge: "Botzone 裁判（默认）", preset_strict_1998: "严格1998规则", preset_custom: "自定义",
    preset_tziakcha: "雀渣 / GB-Mahjong", preset_wmo2014: "世界麻将组织规则（2014）",
    rule_mixed_kongs_five: "一明杠一暗杠计明暗杠5番",
    rule_mixed_kongs_six: "一明杠一暗杠计双明杠4番+暗杠2番（世界麻将组织）",
    rule_wait_in_last_set: "和张计入同种牌的最后一组，按该组计边张/坎张/单钓将（GB-Mahjong）",
    best_tile: "最优的一张", best_tile_scored: "以最优的一张作和牌张计番：{tile}。",
    rule_knitted_body_waits: "组合龙内的和张仍计边张/坎张/单钓将",
    rule_concealed_forms_fully_concealed: "门清牌型自摸计不求人（而非自摸）",
    rule_formal_waits: "手中已有四张的牌仍算听牌",
    rule_seven_pairs_tile_fans: "七对可复合绿一色、字一色、全大等",
    rule_voided_suit_with_big_fans: "大三元、一色四同顺等可加计缺一门",
    rule_all_terminals_triple_pung: "清幺九可加计三同刻",
    network: "mjfast 没有回应（{message}）：`mjfast web` 还在运行吗？", copied: "链接已复制",
  },
};

const TILE_WORDS = {
  en: { m: "characters", p: "dots", s: "bamboo", E: "East", S: "South", W: "West", N: "North",
        C: "Red dragon", F: "Green dragon", P: "White dragon" },
  zh: { m: "万", p: "饼", s: "条", E: "东", S: "南", W: "西", N: "北", C: "中", F: "发", P: "白" },
};
const ZH_DIGITS = "一二三四五六七八九";

let language = null;

export function currentLanguage() {
  if (language === null) {
    let stored = null;
    try {
      stored = localStorage.getItem(STORE);
    } catch {
      // storage refused (a private window): fall back to the browser's language
    }
    language = stored in TEXT ? stored : (navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en";
  }
  return language;
}

export function setLanguage(next) {
  language = next in TEXT ? next : "en";
  try {
    localStorage.setItem(STORE, language);
  } catch {
    // not remembered, still switched
  }
  applyLanguage();
}

export function t(key, values = {}) {
  const text = TEXT[currentLanguage()][key] ?? TEXT.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

// A field's heading: its own text, or the field's name in words (fields added later show so).
export function fieldLabel(key) {
  const own = TEXT[currentLanguage()][`field_${key}`] ?? TEXT.en[`field_${key}`];
  return own ?? key.replace(/_/g, " ");
}

export function fieldAbout(key) {
  return TEXT[currentLanguage()][`about_${key}`] ?? TEXT.en[`about_${key}`] ?? "";
}

export function tileTitle(tile) {
  const name = TILE_NAMES[tile];
  const words = TILE_WORDS[currentLanguage()];
  if (tile >= 27) return `${words[name]} (${name})`;
  const rank = Number(name[0]);
  return currentLanguage() === "zh" ? `${ZH_DIGITS[rank - 1]}${words[name[1]]} (${name})` : `${rank} ${words[name[1]]} (${name})`;
}

export function shantenWords(shanten) {
  if (shanten < 0) return t("shanten_win");
  return shanten === 0 ? t("shanten_ready") : t("shanten_n", { n: shanten });
}

// A wind <select>: E S W N in words, keeping its choice.
export function fillWinds(select) {
  const chosen = select.value || "E";
  select.replaceChildren(...[..."ESWN"].map((w) => new Option(t(`wind_${w}`), w)));
  select.value = chosen;
}

export function applyLanguage(root = document) {
  document.documentElement.lang = currentLanguage() === "zh" ? "zh-CN" : "en";
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) node.placeholder = t(node.dataset.i18nPlaceholder);
}
