// The fan calculator: a winning hand of 14 tiles (its winning tile chosen, or the best of its
// tiles), the win conditions, winds, flowers and the ruleset (a rulebook's preset, or switches
// one by one); its fans in Chinese and English with their points, the total, whether it meets
// the minimum, and the settlement of the four seats. A hand of 13 shows what each of its waits
// would score.

import { ask } from "./service.js";
import { HandEditor } from "./editor.js";
import { fillWinds, t, tileTitle } from "./i18n.js";
import { handText, tileCount, tileId, tileImage } from "./tiles.js";
import { $, element } from "./dom.js";

const WINDS = "ESWN";
const FLAGS = { self_drawn: "calc-self-drawn", last_copy: "calc-last-copy", kong: "calc-kong", last_tile: "calc-last-tile" };
// mjfast.fan.Ruleset: the reference judge's choices, and the rulebooks' presets (mjfast.fan.RULESETS)
const JUDGE = {
  mixed_kongs_five: true, mixed_kongs_six: false, knitted_body_waits: true, wait_in_last_set: false,
  concealed_forms_fully_concealed: false, formal_waits: true, seven_pairs_tile_fans: true,
  voided_suit_with_big_fans: true, all_terminals_triple_pung: true,
};
const PRESETS = {
  judge: JUDGE,
  tziakcha: { ...JUDGE, knitted_body_waits: false, wait_in_last_set: true },
  wmo2014: { ...JUDGE, mixed_kongs_five: false, mixed_kongs_six: true, concealed_forms_fully_concealed: true },
  strict_1998: { ...JUDGE, seven_pairs_tile_fans: false, voided_suit_with_big_fans: false, all_terminals_triple_pung: false },
};
const BEST = "best"; // the winning tile's choice that scores the hand with the best of its tiles

export class CalculatorView {
  constructor(app) {
    this.app = app;
    this.asked = 0;
    this.bestTile = false;
    this.editor = new HandEditor($("calc-editor"), {
      name: "calc", goKey: "score", dealSize: 0, onChange: () => this.changed(),
    });
    for (const id of ["calc-seat", "calc-wind"]) fillWinds($(id));
    this.fillFrom();
    this.buildRules();
    for (const id of [...Object.values(FLAGS), "calc-seat", "calc-wind", "calc-flowers", "calc-from", "calc-minimum"]) {
      $(id).addEventListener("change", () => this.changed());
    }
    $("calc-win").addEventListener("change", () => this.setWinningTile($("calc-win").value));
    $("calc-preset").addEventListener("change", () => this.usePreset($("calc-preset").value));
  }

  get hand() {
    return this.editor.hand;
  }

  fillFrom() {
    const from = $("calc-from");
    const chosen = from.value || "1";
    from.replaceChildren(...["from_left", "from_across", "from_right"].map((key, i) => new Option(t(key), String(i + 1))));
    from.value = chosen;
  }

  // --- the ruleset ------------------------------------------------------------------------

  buildRules() {
    const box = $("calc-switches");
    box.replaceChildren();
    for (const name of Object.keys(JUDGE)) {
      const label = element("label", "check");
      const input = element("input");
      Object.assign(input, { type: "checkbox", id: `rule-${name}`, checked: JUDGE[name] });
      input.addEventListener("change", () => this.changed());
      label.append(input, document.createTextNode(" "), element("span", null, t(`rule_${name}`)));
      box.append(label);
    }
    this.fillPresets();
  }

  fillPresets() {
    const preset = $("calc-preset");
    preset.replaceChildren(...[...Object.keys(PRESETS), "custom"].map((key) => new Option(t(`preset_${key}`), key)));
    preset.value = this.presetName();
    $("calc-rules-name").textContent = t(`preset_${this.presetName()}`);
  }

  switches() {
    return Object.fromEntries(Object.keys(JUDGE).map((name) => [name, $(`rule-${name}`).checked]));
  }

  minimum() {
    const n = Number($("calc-minimum").value);
    return Number.isInteger(n) && n >= 0 ? n : 8;
  }

  presetName() {
    const now = JSON.stringify(this.switches());
    const found = Object.keys(PRESETS).find((key) => JSON.stringify(PRESETS[key]) === now);
    return found && this.minimum() === 8 ? found : "custom";
  }

  usePreset(name) {
    if (!(name in PRESETS)) return;
    for (const [key, on] of Object.entries(PRESETS[name])) $(`rule-${key}`).checked = on;
    $("calc-minimum").value = "8";
    this.changed();
  }

  // The ruleset fields that differ from the judge's, as the service's "ruleset" takes them.
  rulesetChanges() {
    const changes = {};
    for (const [name, on] of Object.entries(this.switches())) if (on !== JUDGE[name]) changes[name] = on;
    if (this.minimum() !== 8) changes.minimum = this.minimum();
    return changes;
  }

  // --- the address -----------------------------------------------------------------------

  params() {
    const params = { hand: handText(this.hand), seat: $("calc-seat").value, wind: $("calc-wind").value,
                     flowers: Number($("calc-flowers").value) || "" };
    for (const [name, id] of Object.entries(FLAGS)) params[name] = $(id).checked ? "1" : "";
    params.from = $("calc-self-drawn").checked || $("calc-from").value === "1" ? "" : $("calc-from").value;
    params.best = this.bestTile ? "1" : "";
    for (const [name, value] of Object.entries(this.rulesetChanges())) params[name] = typeof value === "boolean" ? Number(value) : value;
    return params;
  }

  async load(params) {
    $("calc-seat").value = WINDS.includes(params.seat) && params.seat ? params.seat : "E";
    $("calc-wind").value = WINDS.includes(params.wind) && params.wind ? params.wind : "E";
    $("calc-flowers").value = params.flowers || "0";
    for (const [name, id] of Object.entries(FLAGS)) $(id).checked = params[name] === "1";
    $("calc-from").value = ["1", "2", "3"].includes(params.from) ? params.from : "1";
    for (const name of Object.keys(JUDGE)) {
      $(`rule-${name}`).checked = name in params ? params[name] === "1" : JUDGE[name];
    }
    $("calc-minimum").value = /^\d+$/.test(params.minimum || "") ? params.minimum : "8";
    this.bestTile = params.best === "1";
    if (params.hand) {
      this.editor.input.value = params.hand;
      await this.editor.commitText();
    } else this.changed();
  }

  // --- asking and showing ---------------------------------------------------------------

  // `choice`: a tile's id, or BEST (the hand scored with the best of its tiles)
  setWinningTile(choice) {
    this.bestTile = choice === BEST;
    if (this.bestTile) {
      this.changed();
      return;
    }
    const tile = Number(choice);
    const standing = [...this.hand.standing];
    const at = standing.lastIndexOf(tile);
    if (at < 0) return;
    standing.splice(at, 1);
    standing.push(tile);
    this.editor.setHand({ melds: this.hand.melds, standing });
    this.changed();
  }

  renderWinningTile() {
    const select = $("calc-win");
    const kinds = [...new Set(this.hand.standing)].sort((a, b) => a - b);
    select.replaceChildren(new Option(t("best_tile"), BEST), ...kinds.map((tile) => new Option(tileTitle(tile), String(tile))));
    const drawn = tileCount(this.hand) === 14;
    if (drawn) select.value = this.bestTile ? BEST : String(this.hand.standing.at(-1));
    select.disabled = !drawn;
  }

  conditions() {
    const conditions = { seat_wind: $("calc-seat").value, prevalent_wind: $("calc-wind").value };
    for (const [name, id] of Object.entries(FLAGS)) if ($(id).checked) conditions[name] = true;
    const flowers = Number($("calc-flowers").value) || 0;
    if (flowers) conditions.flowers = flowers;
    const changes = this.rulesetChanges();
    if (Object.keys(changes).length) conditions.ruleset = changes;
    return conditions;
  }

  clear() {
    for (const id of ["calc-summary", "calc-notes"]) $(id).replaceChildren();
    for (const id of ["calc-fans", "calc-settle"]) $(id).replaceChildren();
    $("calc-settle-error").hidden = true;
    $("calc-settle-title").hidden = true;
  }

  async changed() {
    const asked = ++this.asked;
    $("calc-from-label").hidden = $("calc-self-drawn").checked;
    this.fillPresets();
    this.renderWinningTile();
    this.app.saveAddress(this);
    const n = tileCount(this.hand);
    this.clear();
    if (n < 13) {
      $("calc-summary").textContent = t("need_14");
      return;
    }
    const hand = handText(this.hand);
    try {
      if (n === 13) {
        const { seat_wind, prevalent_wind, flowers, self_drawn } = this.conditions();
        const waits = await ask("waits", { hand, fans: true, seat_wind, prevalent_wind, flowers, self_drawn });
        if (asked === this.asked) this.showWaits(waits);
        return;
      }
      const scored = await ask("score", { hand, ...this.conditions(), ...(this.bestTile ? { best_tile: true } : {}) });
      if (asked !== this.asked) return;
      this.showScore(scored);
      await this.settle(hand, asked);
    } catch (error) {
      if (asked === this.asked) this.editor.showError(error.code === "network" ? t("network", { message: error.message }) : error.message);
    }
  }

  showWaits(waits) {
    const summary = $("calc-summary");
    if (!waits.waits.length) {
      summary.textContent = t("no_waits_13");
      return;
    }
    summary.replaceChildren(document.createTextNode(t("waits_13")));
    for (const wait of waits.fans) {
      const tile = tileId(wait.tile);
      const button = element("button", `draw ${wait.meets_minimum ? "enough" : "short"}`);
      button.type = "button";
      button.dataset.tile = wait.tile;
      button.append(tileImage(tile, tileTitle(tile)), element("span", "left", t("score_summary", { total: wait.total })));
      button.addEventListener("click", () => {
        this.editor.setHand({ melds: this.hand.melds, standing: [...this.hand.standing, tile] });
        this.changed();
      });
      summary.append(button);
    }
  }

  showScore(scored) {
    const minimum = this.minimum();
    const summary = $("calc-summary");
    const flowers = scored.total - scored.points;
    summary.replaceChildren(
      element("strong", "total", t("score_summary", { total: scored.total }) + (flowers ? t("score_flowers", { flowers }) : "")),
      document.createTextNode(" · "),
      element("span", scored.meets_minimum ? "enough" : "short", t(scored.meets_minimum ? "meets" : "below", { min: minimum })),
    );
    summary.dataset.total = String(scored.total);
    const notes = this.bestTile ? [t("best_tile_scored", { tile: tileTitle(tileId(scored.win_tile)) })] : [];
    for (const [name, id] of Object.entries(FLAGS)) {
      if ($(id).checked && !scored[name]) notes.push(t("not_scored", { what: t(name) }));
    }
    $("calc-notes").textContent = notes.join(" ");
    const table = $("calc-fans");
    const head = element("tr");
    for (const key of ["fan_cn", "fan_en", "fan_points", "fan_count", "fan_total"]) head.append(element("th", key, t(key)));
    const body = element("tbody");
    for (const fan of scored.fans) {
      const row = element("tr");
      row.dataset.fan = fan.name_en;
      row.append(element("td", "cn", fan.name_cn), element("td", "en", fan.name_en), element("td", "num", String(fan.points)),
                 element("td", "num", fan.count > 1 ? `×${fan.count}` : ""), element("td", "num", String(fan.points * fan.count)));
      body.append(row);
    }
    const foot = element("tr", "sum");
    foot.append(element("td", null, t("fan_total")), element("td"), element("td"), element("td"),
                element("td", "num", String(scored.total)));
    const thead = element("thead");
    thead.append(head);
    const tfoot = element("tfoot");
    tfoot.append(foot);
    table.replaceChildren(thead, body, tfoot);
  }

  // Players 0-3 sit E S W N; the winner is the seat wind's player; the discarder sits on the
  // winner's left (the player before), across, or right (the player after).
  async settle(hand, asked) {
    const winner = WINDS.indexOf($("calc-seat").value);
    const selfDrawn = $("calc-self-drawn").checked;
    const discarder = selfDrawn ? null : (winner + [0, 3, 2, 1][Number($("calc-from").value)]) % 4;
    const params = { hand, ...this.conditions(), winner, ...(this.bestTile ? { best_tile: true } : {}) };
    if (discarder !== null) params.discarder = discarder;
    $("calc-settle-title").hidden = false;
    try {
      const settled = await ask("settle", params);
      if (asked !== this.asked) return;
      const head = element("tr");
      for (const key of ["seat", "role", "delta"]) head.append(element("th", key === "delta" ? "num" : null, t(key)));
      const thead = element("thead");
      thead.append(head);
      const body = element("tbody");
      settled.scores.forEach((delta, player) => {
        const role = player === winner ? t("winner") : player === discarder ? t("discarder") : "";
        const row = element("tr");
        const cell = element("td", `num ${delta > 0 ? "enough" : "short"}`, delta > 0 ? `+${delta}` : String(delta));
        cell.dataset.player = String(player);
        row.append(element("td", null, t(`wind_${WINDS[player]}`)), element("td", null, role), cell);
        body.append(row);
      });
      $("calc-settle").replaceChildren(thead, body);
    } catch (error) {
      if (asked !== this.asked) return;
      $("calc-settle-error").textContent = error.message;
      $("calc-settle-error").hidden = false;
    }
  }

  relabel() {
    for (const id of ["calc-seat", "calc-wind"]) fillWinds($(id));
    this.fillFrom();
    const switches = this.switches();
    this.buildRules();
    for (const [name, on] of Object.entries(switches)) $(`rule-${name}`).checked = on;
    this.fillPresets();
    this.editor.render();
    this.changed();
  }
}
