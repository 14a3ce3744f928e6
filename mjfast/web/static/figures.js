// Tables of what the service answers, and the reason the best discard ranks first, in words.
//
// Every field of every option becomes a column: the fields mjfast has today in the order that
// reads best, then any other field in the order the service sends it, with its name as the
// heading and its value drawn by its type (a tile name as a tile, a list of tiles as tiles,
// numbers as numbers), so that a field added to the service shows without a change here.

import { fieldAbout, fieldLabel, shantenWords, t, tileTitle } from "./i18n.js";
import { isTileName, readMeld, meldTiles, tileId, tileImage } from "./tiles.js";
import { element } from "./dom.js";

// the discard, what decides (value, shanten, acceptance), the tiles it waits for, the rest
export const ADVICE_ORDER = [
  "tile", "win_probability", "expected_score", "effective_shanten", "valid_acceptance", "acceptance", "waits", "useful",
  "useful_kinds", "next_valid_acceptance", "next_acceptance", "shanten", "valid_draws",
];

const MELD = /^\[[0-9mpsESWNCFP]+\]$/;

const percent = (p) => t("percent", { n: (100 * p).toFixed(p >= 0.1 ? 0 : 1) });
const points = (e) => t("points", { n: e.toFixed(1) });
const number = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

function notWorkedOut() {
  const node = element("span", "label", "–");
  node.title = t("not_worked_out");
  return node;
}

// Known fields drawn their own way; everything else goes through value().
const FORMATS = {
  // mjfast works next acceptance out only where it decides the ranking; 0 elsewhere
  next_acceptance: (v) => (v === 0 ? notWorkedOut() : null),
  win_probability: (v) => (typeof v === "number" ? document.createTextNode(percent(v)) : null),
  expected_score: (v) => (typeof v === "number" ? document.createTextNode(points(v)) : null),
};

// Any JSON value as page content: tiles for tile names and melds, text for the rest.
export function value(v) {
  if (v === null || v === undefined) return document.createTextNode("—");
  if (typeof v === "boolean") return document.createTextNode(v ? t("yes") : t("no"));
  if (typeof v === "number") return document.createTextNode(number(v));
  if (typeof v === "string") {
    if (isTileName(v)) return tileImage(tileId(v), tileTitle(tileId(v)));
    if (MELD.test(v)) {
      const group = element("span", "meld-inline");
      for (const tile of meldTiles(readMeld(v))) group.append(tileImage(tile, tileTitle(tile)));
      return group;
    }
    return document.createTextNode(v);
  }
  const box = element("span", Array.isArray(v) && v.every(isTileName) ? "tiles small" : "value");
  if (Array.isArray(v)) {
    v.forEach((item, i) => {
      if (i && !(isTileName(item) || MELD.test(item))) box.append(document.createTextNode(", "));
      box.append(value(item));
    });
  } else {
    Object.entries(v).forEach(([key, item], i) => {
      if (i) box.append(document.createTextNode(" · "));
      box.append(document.createTextNode(`${fieldLabel(key)}: `), value(item));
    });
  }
  return box;
}

// The columns of a list of options: those of `order` that occur, then the others as they come.
function columns(options, order = []) {
  const seen = [];
  for (const option of options) for (const key of Object.keys(option)) if (!seen.includes(key)) seen.push(key);
  return [...order.filter((key) => seen.includes(key)), ...seen.filter((key) => !order.includes(key))];
}

// Fill `table` with one row per option, best first. cell(key, value, option, row) may draw a
// cell its own way (return a node) or leave it to the generic drawing (return null).
export function fillTable(table, options, order, cell = () => null) {
  const keys = columns(options, order);
  const head = element("thead");
  const headRow = element("tr");
  headRow.append(element("th", "rank", fieldLabel("rank")));
  for (const key of keys) {
    const th = element("th", null, fieldLabel(key));
    th.dataset.field = key;
    const about = fieldAbout(key);
    if (about) th.title = about;
    headRow.append(th);
  }
  head.append(headRow);
  const body = element("tbody");
  options.forEach((option, index) => {
    const row = element("tr");
    row.dataset.index = String(index);
    if (typeof option.tile === "string") row.dataset.tile = option.tile;
    if (index === 0) row.classList.add("best");
    const rank = element("td", "rank", String(index + 1));
    rank.dataset.label = fieldLabel("rank");
    row.append(rank);
    for (const key of keys) {
      const td = element("td");
      td.dataset.field = key;
      td.dataset.label = fieldLabel(key); // its heading, beside it when the rows show as cards
      const drawn = key in option ? cell(key, option[key], option, index) ?? FORMATS[key]?.(option[key]) ?? value(option[key])
        : document.createTextNode("");
      td.append(drawn);
      row.append(td);
    }
    body.append(row);
  });
  table.replaceChildren(head, body);
  fit(table);
  return keys;
}

// A table wider than its box would be cut off at the panel's edge: its rows show as cards
// instead, each cell beside its heading (table.stacked in style.css). Tried again when the box
// changes width (a window resized, a hidden view shown) and when a font arrives.
const fitted = new Set();
const fittedWidth = new WeakMap(); // box -> the width it was fitted at
const watcher = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    // its height changes with the cards; only a new width can change the answer
    if (target.clientWidth !== fittedWidth.get(target)) fit(target.querySelector("table"));
  }
});
document.fonts.addEventListener("loadingdone", () => fitted.forEach(fit));

function fit(table) {
  const box = table.parentElement;
  if (!fitted.has(table)) {
    fitted.add(table);
    watcher.observe(box);
  }
  fittedWidth.set(box, box.clientWidth);
  table.classList.remove("stacked");
  if (box.clientWidth && table.offsetWidth > box.clientWidth) table.classList.add("stacked");
}

// --- the reason the first discard ranks first ---------------------------------------------

const tileWords = (name) => tileTitle(tileId(name)).replace(/ \(.*\)$/, "");
const valueFigures = (o) => [
  typeof o.win_probability === "number" ? t("value_win", { p: percent(o.win_probability) }) : null,
  typeof o.expected_score === "number" ? t("value_score", { e: o.expected_score.toFixed(1) }) : null,
].filter(Boolean).join(", ");

function describe(best) {
  const tile = tileWords(best.tile);
  const waits = (best.waits || []).map((w) => tileWords(w.tile));
  let text;
  if (best.shanten === 0 && waits.length) {
    text = t("reason_ready", { tile, waits: waits.join(", "), acc: best.acceptance });
    if (typeof best.valid_acceptance === "number") text += t("reason_ready_valid", { valid: best.valid_acceptance });
  } else {
    text = t("reason_base", { tile, shanten: shantenWords(best.shanten), acc: best.acceptance, kinds: best.useful_kinds });
    if (typeof best.valid_acceptance === "number") text += t("reason_valid", { valid: best.valid_acceptance });
  }
  return text + t("stop");
}

// Why options[0] comes before options[1], on the figures the service gives, in the order
// mjfast ranks by (mjfast.best_discards): fan-aware, effective shanten, valid acceptance (or
// acceptance where unknown), acceptance, next valid acceptance, then figures the answer does
// not carry (the fans of the waits, the chances at big fans), next acceptance, the tile.
// Value figures (win chance, expected score), where the service gives them, come first.
export function reason(options) {
  if (!options.length) return "";
  const [best, other] = options;
  const parts = [];
  if (valueFigures(best)) {
    parts.push(t("reason_value", { tile: tileWords(best.tile), figures: valueFigures(best) })
      + (other ? ` (${t("reason_value_vs", { other: tileWords(other.tile), figures: valueFigures(other) })})` : "")
      + t("stop"));
  }
  parts.push(describe(best));
  if (!other) {
    parts.push(t("reason_only"));
    return parts.join(t("gap"));
  }
  if (valueFigures(best)) return parts.join(t("gap"));
  const name = tileWords(other.tile);
  const fanAware = "effective_shanten" in best;
  const key1 = (o) => (typeof o.valid_acceptance === "number" ? o.valid_acceptance : o.acceptance);
  const next = (o, key) => (typeof o[key] === "number" ? o[key] : 0);
  if (fanAware && best.effective_shanten !== other.effective_shanten) {
    parts.push(t("reason_effective", { other: name, shanten: shantenWords(other.effective_shanten) }));
  } else if (!fanAware && best.shanten !== other.shanten) {
    parts.push(t("reason_shanten", { other: name, shanten: shantenWords(other.shanten) }));
  } else if (fanAware && key1(best) !== key1(other) && typeof other.valid_acceptance === "number") {
    parts.push(t("reason_more_valid", { other: name, n: other.valid_acceptance }));
  } else if (best.acceptance !== other.acceptance) {
    parts.push(t("reason_more_acceptance", { other: name, n: other.acceptance }));
  } else if (fanAware && next(best, "next_valid_acceptance") !== next(other, "next_valid_acceptance")) {
    parts.push(t("reason_more_next_valid", { other: name, a: next(best, "next_valid_acceptance").toFixed(2),
                                             b: next(other, "next_valid_acceptance").toFixed(2) }));
  } else if (best.next_acceptance && other.next_acceptance) {
    // both worked out: they tied on every key before it (mjfast works it out only then)
    parts.push(best.next_acceptance !== other.next_acceptance
      ? t("reason_more_next", { other: name, a: best.next_acceptance.toFixed(2), b: other.next_acceptance.toFixed(2) })
      : t("reason_tie", { other: name, tile: tileWords(best.tile) }));
  } else {
    // fan-aware, the fans of the waits and the chances at big fans come next, and the answer
    // does not carry them; plain, nothing is left but the tile itself
    parts.push(t(fanAware ? "reason_further" : "reason_tie", { other: name, tile: tileWords(best.tile) }));
  }
  return parts.join(t("gap"));
}
