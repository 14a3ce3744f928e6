// Entering a hand: a text field for any notation mjfast reads (the service parses it), a
// palette of the 34 kinds to click (tiles, chows, pungs, kongs, concealed kongs, with who gave
// them), a random deal, and the hand drawn as tiles (click a tile or a meld to take it out).

import { ask } from "./service.js";
import {
  backImage, handText, heldCounts, meldTiles, randomTiles, readCompact, readMeld, tileCount, tileImage,
} from "./tiles.js";
import { t, tileTitle } from "./i18n.js";
import { element } from "./dom.js";

const MODES = ["tile", "chow", "pung", "kong", "concealed"];
const MAX_TILES = 14;

// The editor's hand from the service's "parse" result: melds, then the standing tiles sorted
// with the tile written last kept last.
export function handFromParse(parsed) {
  const standing = readCompact(parsed.standing).sort((a, b) => a - b);
  if (parsed.last_tile) {
    const last = readCompact(parsed.last_tile)[0];
    standing.splice(standing.indexOf(last), 1);
    standing.push(last);
  }
  return { melds: parsed.melds.map(readMeld), standing };
}

export class HandEditor {
  // options: name (for ids), goKey (label of the Enter button), dealSize (tiles of a random
  // deal; 0: no random deal), onChange(hand) when the hand changes, seen (a function: copies seen elsewhere, which the palette leaves out),
  // onSeenPick(tile) (the palette may add to the tiles seen elsewhere instead of the hand).
  constructor(root, options) {
    this.options = options;
    this.hand = { melds: [], standing: [] };
    this.mode = "tile";
    this.target = "hand";
    this.build(root);
  }

  build(root) {
    const name = this.options.name;
    root.classList.add("editor");
    const row = element("div", "row hand-input");
    this.input = element("input", "hand-text");
    Object.assign(this.input, { type: "text", id: `${name}-hand`, spellcheck: false, autocomplete: "off" });
    this.input.setAttribute("autocapitalize", "off");
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.commitText();
      }
    });
    this.go = element("button", "go");
    this.go.type = "button";
    this.go.addEventListener("click", () => this.commitText());
    this.deal = element("button", "deal");
    this.deal.type = "button";
    this.deal.addEventListener("click", () => this.randomDeal());
    this.clearButton = element("button", "quiet clear");
    this.clearButton.type = "button";
    this.clearButton.addEventListener("click", () => this.update({ melds: [], standing: [] }));
    this.label = element("label", "hand-label");
    this.label.htmlFor = this.input.id;
    this.deal.hidden = !this.options.dealSize; // a random deal is almost never a win: advice only
    row.append(this.input, this.go, this.deal, this.clearButton);
    this.error = element("p", "error");
    this.error.setAttribute("role", "alert");
    this.error.id = `${name}-error`;
    this.error.hidden = true;
    this.handView = element("div", "hand");
    this.handView.id = `${name}-tiles`;
    this.count = element("p", "hint count");

    const modes = element("div", "row modes");
    this.modeButtons = MODES.map((mode) => {
      const button = element("button", "mode");
      button.type = "button";
      button.dataset.mode = mode;
      button.addEventListener("click", () => this.setMode(mode));
      return button;
    });
    this.offer = element("select", "offer");
    this.offer.id = `${name}-offer`;
    modes.append(...this.modeButtons, this.offer);
    if (this.options.onSeenPick) {
      this.targetButton = element("button", "target");
      this.targetButton.type = "button";
      this.targetButton.id = `${name}-target`;
      this.targetButton.addEventListener("click", () => {
        this.target = this.target === "hand" ? "seen" : "hand";
        this.render();
      });
      modes.append(this.targetButton);
    }
    this.palette = element("div", "palette");
    this.palette.id = `${name}-palette`;
    this.paletteButtons = [];
    for (const start of [0, 9, 18, 27]) {
      const line = element("div", "palette-row");
      for (let t = start; t < Math.min(start + 9, 34); t++) {
        const button = element("button", "pick");
        button.type = "button";
        button.dataset.tile = String(t);
        button.append(tileImage(t, ""), element("span", "left"));
        button.addEventListener("click", () => this.pick(t));
        line.append(button);
        this.paletteButtons.push(button);
      }
      this.palette.append(line);
    }
    root.append(this.label, row, this.error, this.handView, this.count, modes, this.palette);
  }

  setMode(mode) {
    this.mode = mode;
    this.render();
  }

  showError(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
  }

  // Replace the hand (no request) and say so.
  update(hand) {
    this.hand = hand;
    this.showError("");
    this.render();
    this.options.onChange(hand);
  }

  // The hand without telling the view (it set it itself: a link, undo, redo).
  setHand(hand) {
    this.hand = hand;
    this.showError("");
    this.render();
  }

  // The typed hand, read by the service; its message under the field if mjfast refuses it.
  async commitText() {
    const text = this.input.value.trim();
    if (!text) {
      this.update({ melds: [], standing: [] });
      return;
    }
    try {
      const parsed = await ask("parse", { hand: text });
      this.update(handFromParse(parsed));
    } catch (error) {
      this.showError(error.message);
    }
  }

  used() {
    const held = heldCounts(this.hand);
    const seen = this.options.seen ? this.options.seen() : Array(34).fill(0);
    return held.map((n, i) => n + seen[i]);
  }

  // Copies of tile `t` that a click in the current mode needs, per kind.
  needs(tile) {
    const need = Array(34).fill(0);
    if (this.target === "seen" || this.mode === "tile") need[tile] = 1;
    else if (this.mode === "chow") {
      if (tile >= 27 || tile % 9 > 6) return null;
      need[tile] = need[tile + 1] = need[tile + 2] = 1;
    } else need[tile] = this.mode === "pung" ? 3 : 4;
    return need;
  }

  roomFor() {
    if (this.target === "seen") return true;
    const melds = this.hand.melds.length;
    if (this.mode === "tile") return this.hand.standing.length < MAX_TILES - 3 * melds;
    // a meld takes three places of the fourteen (a kong's fourth tile is its replacement draw)
    return melds < 4 && this.hand.standing.length <= MAX_TILES - 3 * (melds + 1);
  }

  pick(tile) {
    const need = this.needs(tile);
    const used = this.used();
    if (!need || need.some((n, i) => n && used[i] + n > 4)) return;
    if (this.target === "seen") {
      this.options.onSeenPick(tile);
      return;
    }
    if (!this.roomFor()) {
      this.showError(t("hand_full"));
      return;
    }
    const hand = { melds: [...this.hand.melds], standing: [...this.hand.standing] };
    if (this.mode === "tile") hand.standing.push(tile);
    else {
      const offer = this.mode === "concealed" ? 0 : Number(this.offer.value);
      hand.melds.push({ kind: this.mode === "concealed" ? "kong" : this.mode, tile, offer, added: false });
      this.mode = "tile";
    }
    this.update(hand);
  }

  removeStanding(index) {
    const standing = [...this.hand.standing];
    standing.splice(index, 1);
    this.update({ melds: this.hand.melds, standing });
  }

  removeMeld(index) {
    const melds = [...this.hand.melds];
    melds.splice(index, 1);
    this.update({ melds, standing: this.hand.standing });
  }

  randomDeal() {
    const seen = this.options.seen ? this.options.seen() : Array(34).fill(0);
    const ids = randomTiles(this.options.dealSize, seen);
    const last = ids.pop();
    this.update({ melds: [], standing: [...ids.sort((a, b) => a - b), last] });
  }

  render() {
    this.input.value = handText(this.hand);
    this.input.placeholder = t("hand_placeholder");
    this.input.setAttribute("aria-label", t("hand"));
    this.label.textContent = t("hand_label");
    this.go.textContent = t(this.options.goKey);
    this.deal.textContent = t("deal");
    this.clearButton.textContent = t("clear");
    this.renderHand();
    const n = tileCount(this.hand);
    this.count.textContent = n >= 13 ? t("tiles_count", { n }) : t("tiles_more", { n, more: 13 - n });
    for (const button of this.modeButtons) {
      button.textContent = t(`mode_${button.dataset.mode}`);
      button.setAttribute("aria-pressed", String(button.dataset.mode === this.mode && this.target === "hand"));
    }
    const chow = this.mode === "chow";
    const choices = chow ? ["claimed_first", "claimed_middle", "claimed_last"] : ["from_left", "from_across", "from_right"];
    const chosen = this.offer.value || "1";
    this.offer.replaceChildren(...choices.map((key, i) => new Option(t(key), String(i + 1))));
    this.offer.value = chosen;
    this.offer.hidden = this.mode === "tile" || this.mode === "concealed" || this.target === "seen";
    if (this.targetButton) {
      this.targetButton.textContent = t(this.target === "hand" ? "target_hand" : "target_seen");
      this.targetButton.setAttribute("aria-pressed", String(this.target === "seen"));
    }
    const used = this.used();
    this.paletteButtons.forEach((button, tile) => {
      const need = this.needs(tile);
      const left = 4 - used[tile];
      button.disabled = !need || need.some((n, i) => n && used[i] + n > 4);
      button.querySelector(".left").textContent = String(left);
      const img = button.querySelector("img");
      img.alt = img.title = tileTitle(tile);
    });
  }

  renderHand() {
    const view = this.handView;
    view.replaceChildren();
    this.hand.melds.forEach((meld, index) => {
      const group = element("button", "meld");
      group.type = "button";
      group.title = t("remove");
      group.addEventListener("click", () => this.removeMeld(index));
      const tiles = meldTiles(meld);
      // the claimed tile lies sideways: a chow's claimed tile; a pung's or kong's on the side of
      // the player who gave it (left first, across in the middle, right last)
      const sideways = meld.kind === "chow" ? meld.offer - 1
        : meld.offer === 0 ? -1 : meld.offer === 1 ? 0 : meld.offer === 3 ? tiles.length - 1 : 1;
      tiles.forEach((tile, i) => {
        const concealedEdge = meld.offer === 0 && (i === 0 || i === 3);
        const img = concealedEdge ? backImage() : tileImage(tile, tileTitle(tile));
        if (i === sideways) img.classList.add("sideways");
        group.append(img);
      });
      const what = meld.kind === "kong" && meld.offer === 0 ? t("concealed_kong")
        : meld.kind === "chow" ? t("mode_chow") : `${t(`mode_${meld.kind}`)} · ${t(["", "from_left", "from_across", "from_right"][meld.offer])}`;
      group.append(element("span", "meld-label", what));
      group.dataset.meld = String(index);
      view.append(group);
    });
    const standing = this.hand.standing;
    const drawn = standing.length % 3 === 2 && standing.length > 1;
    const order = standing.map((tile, i) => [tile, i]);
    const last = drawn ? order.pop() : null;
    order.sort((a, b) => a[0] - b[0]);
    if (last) order.push(last);
    order.forEach(([tile, index], position) => {
      const button = element("button", "held");
      button.type = "button";
      if (last && position === order.length - 1) button.classList.add("drawn");
      button.title = `${tileTitle(tile)} · ${t("remove")}`;
      button.dataset.tile = String(tile);
      button.append(tileImage(tile, tileTitle(tile)));
      button.addEventListener("click", () => this.removeStanding(index));
      view.append(button);
    });
  }
}
