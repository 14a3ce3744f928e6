// The advice page: a hand with its winds, flowers and the tiles seen elsewhere; the shanten
// by form; every discard with all of mjfast's figures, best first, and why the first is first;
// playing out "discard this, draw that" step by step (undo, redo); a claim on another player's
// discard.

import { ask } from "./service.js";
import { HandEditor } from "./editor.js";
import { ADVICE_ORDER, fillTable, reason } from "./figures.js";
import { fillWinds, shantenWords, t, tileTitle } from "./i18n.js";
import { compact, handText, heldCounts, readCompact, tileCount, tileId, tileImage, TILE_NAMES } from "./tiles.js";
import { $, element } from "./dom.js";

const WINDS = "ESWN";

export class AdviceView {
  // app: {saveAddress(view), scoreInCalculator(params)} from main.js
  constructor(app) {
    this.app = app;
    this.seen = [];
    this.history = [];
    this.index = 0;
    this.asked = 0; // requests answered out of order are dropped: only the latest counts
    this.options = [];
    this.selected = 0;
    this.draw = 0;
    this.editor = new HandEditor($("advice-editor"), {
      name: "advice", goKey: "analyse", dealSize: 14,
      onChange: (hand) => this.newHand(hand),
      seen: () => this.seenCounts(),
      onSeenPick: (tile) => this.setSeen([...this.seen, tile]),
    });
    for (const id of ["advice-seat", "advice-wind"]) fillWinds($(id));
    for (const id of ["advice-seat", "advice-wind", "advice-flowers", "advice-fan-aware"]) {
      $(id).addEventListener("change", () => this.analyse());
    }
    $("advice-seen-text").addEventListener("change", () => this.readSeen()); // on Enter, and on leaving it
    $("advice-seen-clear").addEventListener("click", () => this.setSeen([]));
    $("advice-undo").addEventListener("click", () => this.undo());
    $("advice-redo").addEventListener("click", () => this.redo());
    $("claim-ask").addEventListener("click", () => this.askClaim());
    this.fillClaimInputs();
    this.record();
  }

  get hand() {
    return this.editor.hand;
  }

  seenCounts() {
    const counts = Array(34).fill(0);
    for (const tile of this.seen) counts[tile] += 1;
    return counts;
  }

  // --- the address ---------------------------------------------------------------------

  params() {
    return {
      hand: handText(this.hand), seat: $("advice-seat").value, wind: $("advice-wind").value,
      flowers: Number($("advice-flowers").value) || "", seen: compact(this.seen),
      plain: $("advice-fan-aware").checked ? "" : "1",
      // the claim inputs' first choices (1m, from the left) are left out of the address
      claim: $("claim-tile").value === "1m" ? "" : $("claim-tile").value,
      from: $("claim-from").value === "1" ? "" : $("claim-from").value,
    };
  }

  // Show what an address holds: the hand goes to the service to be read like a typed one.
  async load(params) {
    $("advice-seat").value = WINDS.includes(params.seat) && params.seat ? params.seat : "E";
    $("advice-wind").value = WINDS.includes(params.wind) && params.wind ? params.wind : "E";
    $("advice-flowers").value = params.flowers || "0";
    $("advice-fan-aware").checked = params.plain !== "1";
    if (params.claim && TILE_NAMES.includes(params.claim)) $("claim-tile").value = params.claim;
    if (["1", "2", "3"].includes(params.from)) $("claim-from").value = params.from;
    this.seen = params.seen ? readCompact(params.seen) : [];
    this.history = [];
    this.index = 0;
    if (params.hand) {
      this.editor.input.value = params.hand;
      await this.editor.commitText();
    } else {
      this.newHand({ melds: [], standing: [] });
    }
  }

  // --- history ---------------------------------------------------------------------------

  record() {
    this.history = this.history.slice(0, this.index + 1);
    this.history.push({ hand: this.hand, seen: [...this.seen] });
    this.index = this.history.length - 1;
  }

  newHand(hand) {
    // a hand entered anew starts a new play-out
    this.history = [{ hand, seen: [...this.seen] }];
    this.index = 0;
    this.analyse();
  }

  restore(index) {
    if (index < 0 || index >= this.history.length) return;
    this.index = index;
    const { hand, seen } = this.history[index];
    this.seen = [...seen];
    this.editor.setHand(hand);
    this.analyse();
  }

  undo() {
    this.restore(this.index - 1);
  }

  redo() {
    this.restore(this.index + 1);
  }

  // Discard `discard` (or nothing, for a 13-tile hand) and draw `draw`: the next step.
  play(discard, draw) {
    const standing = [...this.hand.standing];
    if (discard !== null) {
      standing.splice(standing.lastIndexOf(discard), 1);
      this.seen = [...this.seen, discard]; // the discard lies on the table, seen by all
    }
    standing.push(draw);
    this.editor.setHand({ melds: this.hand.melds, standing });
    this.record();
    this.analyse();
  }

  // --- tiles seen elsewhere ----------------------------------------------------------------

  async readSeen() {
    const text = $("advice-seen-text").value.trim();
    if (!text) {
      this.setSeen([]);
      return;
    }
    try {
      const answer = await ask("tiles", { tiles: text });
      this.setSeen(answer.tiles.map(tileId));
    } catch (error) {
      this.showSeenError(error.message);
    }
  }

  showSeenError(message) {
    $("advice-seen-error").textContent = message;
    $("advice-seen-error").hidden = !message;
  }

  setSeen(tiles) {
    this.seen = [...tiles].sort((a, b) => a - b);
    this.history[this.index] = { hand: this.hand, seen: [...this.seen] };
    this.analyse();
  }

  renderSeen() {
    $("advice-seen-text").value = compact(this.seen);
    const box = $("advice-seen-tiles");
    box.replaceChildren();
    this.seen.forEach((tile, i) => {
      const button = element("button", "held small");
      button.type = "button";
      button.title = `${tileTitle(tile)} · ${t("remove")}`;
      button.append(tileImage(tile, tileTitle(tile)));
      button.addEventListener("click", () => this.setSeen(this.seen.filter((_, j) => j !== i)));
      box.append(button);
    });
  }

  // --- asking and showing ---------------------------------------------------------------

  conditions() {
    const conditions = { seat_wind: $("advice-seat").value, prevalent_wind: $("advice-wind").value };
    const flowers = Number($("advice-flowers").value) || 0;
    if (flowers) conditions.flowers = flowers;
    return conditions;
  }

  visible() {
    return this.seen.length ? { visible: compact(this.seen) } : {};
  }

  clearResult() {
    for (const id of ["advice-summary", "advice-forms", "advice-reason", "advice-hint"]) $(id).replaceChildren();
    $("advice-table").replaceChildren();
    this.options = [];
  }

  async analyse() {
    const asked = ++this.asked;
    this.renderSeen();
    this.renderSteps();
    this.renderClaimNote();
    this.app.saveAddress(this);
    this.showSeenError("");
    const n = tileCount(this.hand);
    if (n < 13) {
      this.clearResult();
      return;
    }
    const hand = handText(this.hand);
    try {
      if (n === 14) {
        // the tile just drawn (a play-out's draw, or the 14th tile typed: the editor keeps it last)
        // breaks near-ties toward throwing it back (best_discards' drawn)
        const params = { hand, drawn: TILE_NAMES[this.hand.standing.at(-1)], ...this.visible(), ...this.conditions() };
        if (!$("advice-fan-aware").checked) params.fan_aware = false;
        const advice = await ask("advise", params);
        if (asked === this.asked) this.showAdvice(advice);
      } else {
        const [shanten, acceptance] = await Promise.all([
          ask("shanten", { hand }), ask("acceptance", { hand, ...this.visible() })]);
        const waits = acceptance.shanten === 0
          ? await ask("waits", { hand, fans: true, ...this.visible(), seat_wind: $("advice-seat").value,
                                 prevalent_wind: $("advice-wind").value }) : null;
        if (asked === this.asked) this.showWaiting(shanten, acceptance, waits);
      }
    } catch (error) {
      if (asked !== this.asked) return;
      this.clearResult();
      if (/seen|visible/.test(error.message)) this.showSeenError(error.message);
      else this.editor.showError(error.code === "network" ? t("network", { message: error.message }) : error.message);
    }
  }

  showForms(byForm) {
    const box = $("advice-forms");
    box.replaceChildren(element("span", "label", t("forms") + " "));
    for (const [form, value] of Object.entries(byForm)) {
      if (value === null) continue;
      const chip = element("span", "chip", `${t(`form_${form}`)} ${value}`);
      chip.dataset.form = form;
      box.append(chip);
    }
  }

  unseen(tile) {
    return 4 - heldCounts(this.hand)[tile] - this.seenCounts()[tile];
  }

  // A tile to draw: its image and unseen copies; a click plays discard-then-draw.
  drawButton(discard, name, rowIndex, drawIndex, extra = "") {
    const tile = tileId(name);
    const left = this.unseen(tile);
    const button = element("button", "draw");
    button.type = "button";
    button.dataset.tile = name;
    button.dataset.draw = String(drawIndex);
    button.disabled = left <= 0;
    button.title = `${t("play_hint")} ${tileTitle(tile)}`;
    button.append(tileImage(tile, tileTitle(tile)), element("span", "left", extra || `×${left}`));
    button.addEventListener("click", (event) => {
      event.stopPropagation();
      this.play(discard, tile);
    });
    if (rowIndex === this.selected && drawIndex === this.draw) button.classList.add("chosen");
    return button;
  }

  showAdvice(advice) {
    this.options = advice.options;
    this.selected = Math.min(this.selected, Math.max(0, this.options.length - 1));
    this.draw = 0;
    const summary = $("advice-summary");
    summary.replaceChildren(document.createTextNode(t("summary_drawn", { hand: advice.hand, shanten: shantenWords(advice.shanten) })));
    if (advice.shanten < 0) {
      const button = element("button", "inline", t("score_it"));
      button.type = "button";
      button.id = "advice-score-it";
      button.addEventListener("click", () => this.app.scoreInCalculator({
        hand: handText(this.hand), seat: $("advice-seat").value, wind: $("advice-wind").value,
        flowers: $("advice-flowers").value, self_drawn: "1",
      }));
      summary.append(document.createTextNode(" " + t("win_now") + " "), button);
    }
    this.showForms(advice.shanten_by_form);
    $("advice-reason").textContent = reason(advice.options);
    $("advice-hint").textContent = t("play_hint");
    this.renderTable();
  }

  renderTable() {
    const table = $("advice-table");
    fillTable(table, this.options, ADVICE_ORDER, (key, value, option, row) => {
      if (key === "tile") {
        const cell = element("span", "discard");
        cell.append(tileImage(tileId(value), tileTitle(tileId(value))), element("span", "name", value));
        return cell;
      }
      if (key === "useful") {
        const box = element("span", "tiles");
        value.forEach((name, i) => box.append(this.drawButton(option.tile === undefined ? null : tileId(option.tile), name, row, i)));
        return box;
      }
      if (key === "waits") {
        const box = element("span", "tiles waits");
        for (const wait of value) {
          const i = option.useful ? option.useful.indexOf(wait.tile) : -1;
          const fans = `${wait.fans}/${wait.fans_self_drawn}`;
          const button = this.drawButton(tileId(option.tile), wait.tile, row, i, fans);
          button.classList.add(wait.fans >= 8 ? "enough" : "short");
          box.append(button);
        }
        return box;
      }
      return null;
    });
    table.querySelectorAll("tbody tr").forEach((tr) => {
      const index = Number(tr.dataset.index);
      tr.classList.toggle("selected", index === this.selected);
      tr.addEventListener("click", () => this.select(index));
    });
  }

  showWaiting(shanten, acceptance, waits) {
    this.options = [];
    const hand = handText(this.hand);
    const summary = $("advice-summary");
    summary.textContent = acceptance.shanten === 0
      ? t("summary_ready", { hand, acc: acceptance.acceptance })
      : t("summary_waiting", { hand, shanten: shantenWords(acceptance.shanten), acc: acceptance.acceptance,
                               kinds: acceptance.useful.length });
    this.showForms(shanten.by_form);
    $("advice-table").replaceChildren();
    const reasonBox = $("advice-reason");
    reasonBox.replaceChildren(element("span", "label", (waits ? t("waits_fans") : t("useful_now")) + " "));
    const box = element("span", "tiles");
    acceptance.useful.forEach((name, i) => {
      const fans = waits ? waits.fans.find((w) => w.tile === name) : null;
      const button = this.drawButton(null, name, -1, i, fans ? String(fans.points) : "");
      if (fans) button.classList.add(fans.meets_minimum ? "enough" : "short");
      box.append(button);
    });
    reasonBox.append(box);
    $("advice-hint").textContent = t("play_hint");
  }

  renderSteps() {
    $("advice-step").textContent = t("step", { n: this.index });
    $("advice-undo").disabled = this.index === 0;
    $("advice-redo").disabled = this.index >= this.history.length - 1;
  }

  // --- keys ----------------------------------------------------------------------------------

  select(index) {
    if (!this.options.length) return;
    this.selected = Math.max(0, Math.min(index, this.options.length - 1));
    this.draw = 0;
    this.renderTable();
    $("advice-table").querySelector("tr.selected")?.scrollIntoView({ block: "nearest" });
  }

  chooseDraw(step) {
    const option = this.options[this.selected];
    if (!option) return;
    const n = (option.useful || []).length;
    if (n) this.draw = (this.draw + step + n) % n;
    this.renderTable();
  }

  playSelected() {
    const option = this.options[this.selected];
    const name = option && (option.useful || [])[this.draw];
    if (name && this.unseen(tileId(name)) > 0) this.play(tileId(option.tile), tileId(name));
  }

  // A key pressed outside the text fields; true when it was this page's.
  key(event) {
    const digit = /^[1-9]$/.test(event.key) ? Number(event.key) : 0;
    if (event.key === "ArrowDown") this.select(this.selected + 1);
    else if (event.key === "ArrowUp") this.select(this.selected - 1);
    else if (digit) this.select(digit - 1);
    else if (event.key === "ArrowRight") this.chooseDraw(1);
    else if (event.key === "ArrowLeft") this.chooseDraw(-1);
    else if (event.key === "Enter") this.playSelected();
    else if (event.key === "u" || (event.key === "z" && (event.ctrlKey || event.metaKey) && !event.shiftKey)) this.undo();
    else if (event.key === "r" || ((event.key === "y" || event.key === "Z") && (event.ctrlKey || event.metaKey))) this.redo();
    else if (event.key === "d") this.editor.randomDeal();
    else return false;
    return true;
  }

  // --- claims ----------------------------------------------------------------------------

  fillClaimInputs() {
    const tile = $("claim-tile");
    const chosen = tile.value || "1m";
    tile.replaceChildren(...TILE_NAMES.map((name, i) => new Option(tileTitle(i), name)));
    tile.value = chosen;
    const from = $("claim-from");
    const who = from.value || "1";
    from.replaceChildren(...["from_left", "from_across", "from_right"].map((key, i) => new Option(t(key), String(i + 1))));
    from.value = who;
    for (const id of ["claim-tile", "claim-from"]) $(id).onchange = () => this.app.saveAddress(this);
  }

  renderClaimNote() {
    const ready = tileCount(this.hand) === 13;
    $("claim-ask").disabled = !ready;
    $("claim-note").textContent = ready ? "" : t("claim_needs_13");
  }

  async askClaim() {
    const error = $("claim-error");
    const table = $("claim-table");
    error.hidden = true;
    table.replaceChildren();
    try {
      const answer = await ask("claim", {
        hand: handText(this.hand), tile: $("claim-tile").value, from: Number($("claim-from").value),
        seat_wind: $("advice-seat").value, prevalent_wind: $("advice-wind").value, ...this.visible(),
      });
      const options = answer.options || [];
      if (options.length) fillTable(table, options, []);
      else {
        error.textContent = t("claim_none");
        error.hidden = false;
      }
    } catch (failure) {
      error.textContent = failure.code === "unknown_op" ? t("claim_unavailable") : failure.message;
      error.hidden = false;
    }
  }

  // The language changed: draw everything again in it.
  relabel() {
    for (const id of ["advice-seat", "advice-wind"]) fillWinds($(id));
    this.fillClaimInputs();
    this.editor.render();
    this.analyse();
  }
}
