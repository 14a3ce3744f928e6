// Tiles as the page holds them: ids 0-33 in mjfast's order (1m-9m, 1p-9p, 1s-9s, E S W N C F P),
// the compact notation mjfast writes back (the page reads only that: people's own typing goes to
// the service's "parse"), melds, and the tile images.

export const TILE_NAMES = [
  ..."123456789".split("").map((d) => d + "m"),
  ..."123456789".split("").map((d) => d + "p"),
  ..."123456789".split("").map((d) => d + "s"),
  "E", "S", "W", "N", "C", "F", "P",
];
export const HONOURS = "ESWNCFP";
const SUITS = "mps";

export const tileId = (name) => TILE_NAMES.indexOf(name);
export const isTileName = (text) => typeof text === "string" && TILE_NAMES.includes(text);

// Compact notation of ids in the given order, one suit letter per run ("123m456p", "1s5m").
export function compact(ids) {
  let out = "";
  let pending = null;
  for (const t of ids) {
    const suit = t < 27 ? SUITS[Math.floor(t / 9)] : null;
    if (pending !== null && suit !== pending) out += pending;
    pending = suit;
    out += suit === null ? HONOURS[t - 27] : String((t % 9) + 1);
  }
  return pending === null ? out : out + pending;
}

// Ids of mjfast's canonical compact output ("123m456p1357sE"), in written order.
export function readCompact(text) {
  const ids = [];
  let digits = [];
  for (const c of text) {
    if (c >= "1" && c <= "9") digits.push(Number(c));
    else if (SUITS.includes(c)) {
      for (const d of digits) ids.push(SUITS.indexOf(c) * 9 + d - 1);
      digits = [];
    } else if (HONOURS.includes(c)) ids.push(27 + HONOURS.indexOf(c));
  }
  return ids;
}

export const sortedIds = (ids) => [...ids].sort((a, b) => a - b);

// A meld: {kind: "chow"|"pung"|"kong", tile (lowest of a chow), offer, added}; offer as in
// mjfast's notation (chow: which tile was claimed 1-3; pung/kong: who gave it 1 left, 2 across,
// 3 right; 0 a concealed kong).
export function meldTiles(meld) {
  if (meld.kind === "chow") return [meld.tile, meld.tile + 1, meld.tile + 2];
  return Array(meld.kind === "kong" ? 4 : 3).fill(meld.tile);
}

export function meldText(meld) {
  const body = compact(meldTiles(meld));
  if (meld.kind === "kong" && meld.offer === 0) return `[${body}]`;
  return `[${body}${meld.added ? meld.offer + 4 : meld.offer}]`;
}

// A meld from mjfast's canonical text ("[123m1]", "[EEE2]", "[5555p]", "[5555p5]").
export function readMeld(text) {
  // the body ends with a suit or honour letter; a digit after it is the offer
  const [, body, digit] = text.replace(/^\[|\]$/g, "").match(/^(.*[mpsESWNCFP])([0-9])?$/);
  const tiles = readCompact(body);
  const kind = tiles.length === 4 ? "kong" : tiles[0] === tiles[1] ? "pung" : "chow";
  const offer = digit === undefined ? (kind === "kong" ? 0 : 1) : Number(digit);
  return { kind, tile: Math.min(...tiles), offer: offer >= 5 ? offer - 4 : offer, added: offer >= 5 };
}

// The hand as the page keeps it: melds, and standing tiles whose last one is the tile written
// last (the drawn tile; in the calculator the winning tile).
export function handText(hand) {
  const last = hand.standing.length ? hand.standing.at(-1) : null;
  const rest = sortedIds(hand.standing.slice(0, -1));
  return hand.melds.map(meldText).join("") + compact(rest) + (last === null ? "" : compact([last]));
}

export const tileCount = (hand) => hand.standing.length + 3 * hand.melds.length;

// Copies of each kind the hand holds, melds included.
export function heldCounts(hand) {
  const counts = Array(34).fill(0);
  for (const t of hand.standing) counts[t] += 1;
  for (const m of hand.melds) for (const t of meldTiles(m)) counts[t] += 1;
  return counts;
}

export function tileImage(t, title) {
  const img = document.createElement("img");
  img.className = "tile";
  img.src = `tiles/${TILE_NAMES[t]}.svg`;
  img.alt = title;
  img.title = title;
  img.draggable = false;
  return img;
}

export function backImage() {
  const img = document.createElement("img");
  img.className = "tile";
  img.src = "tiles/back.svg";
  img.alt = "";
  return img;
}

// A random hand of `size` tiles drawn from the copies `used` leaves (a wall of 136, no flowers).
export function randomTiles(size, used) {
  const wall = [];
  for (let t = 0; t < 34; t++) for (let k = used[t]; k < 4; k++) wall.push(t);
  const ids = [];
  for (let i = 0; i < size && wall.length; i++) {
    const j = Math.floor(Math.random() * wall.length);
    ids.push(wall[j]);
    wall.splice(j, 1);
  }
  return ids;
}
