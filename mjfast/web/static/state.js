// The page's state in its address: "#advice?hand=...&seat=S" or "#calc?hand=...&self_drawn=1".
// Everything a link needs to show the same hand is there (not the play-out history). Values
// are percent-encoded except the brackets and commas of meld notation, so that links stay
// readable.

const KEEP = { "%5B": "[", "%5D": "]", "%2C": "," };

function encode(value) {
  return encodeURIComponent(value).replace(/%5B|%5D|%2C/g, (code) => KEEP[code]);
}

export function readAddress() {
  const text = location.hash.replace(/^#/, "");
  const [view, query = ""] = text.split("?", 2);
  const params = {};
  for (const pair of query.split("&")) {
    if (!pair) continue;
    const [key, value = ""] = pair.split("=", 2);
    try {
      params[decodeURIComponent(key)] = decodeURIComponent(value.replace(/\+/g, " "));
    } catch {
      // a mangled escape in a hand-edited link: skip that pair, keep the rest
    }
  }
  return { view, params };
}

// The address for `view` and `params` (entries with empty values left out).
export function address(view, params) {
  const query = Object.entries(params)
    .filter(([, value]) => value !== "" && value !== null && value !== undefined)
    .map(([key, value]) => `${encode(key)}=${encode(String(value))}`)
    .join("&");
  return `#${view}${query ? "?" + query : ""}`;
}

export function writeAddress(view, params) {
  const hash = address(view, params);
  if (location.hash !== hash) history.replaceState(null, "", hash);
}
