// Opening a review: a log file the player picks (Botzone's JSON match log, a Tziakcha session
// or the Botzone / PKU text format) goes to the service's review operation, its first game
// first (a log of several games, a session's hands: the game chosen beside the link), and the
// review's page (the one `mjfast review` writes) opens from a link, in a new tab.

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { ask } from "./service.js";

let opened = null; // the object URL of the last review page, released when another replaces it
let picked = null; // { name, text } of the log file picked

export function setUpReviews() {
  const input = $("review-file");
  input.addEventListener("change", async () => {
    const file = input.files[0];
    input.value = ""; // picking the same file again reviews it again
    if (!file) return;
    picked = { name: file.name, text: await file.text() };
    await review(0);
  });
  $("review-game").addEventListener("change", () => review(Number($("review-game").value)));
}

async function review(game) {
  const error = $("review-error");
  const link = $("review-open");
  error.hidden = true;
  link.hidden = true;
  try {
    const result = await ask("review", { log: picked.text, game });
    if (opened !== null) URL.revokeObjectURL(opened);
    opened = URL.createObjectURL(new Blob([result.html], { type: "text/html" }));
    link.href = opened;
    link.textContent = t("review_open", { match: result.match_id, decisions: result.decisions });
    link.hidden = false;
    showGames(result.games, game);
    link.focus();
  } catch (failure) {
    error.textContent = `${picked.name}: ${failure.message}`;
    error.hidden = false;
  }
}

function showGames(count, chosen) {
  const select = $("review-game");
  select.replaceChildren(...Array.from({ length: count }, (_, k) => new Option(String(k + 1), String(k))));
  select.value = String(chosen);
  $("review-game-label").hidden = count < 2;
}
