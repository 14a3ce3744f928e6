// Opening a review: a log file the player picks (Botzone's JSON match log or the Botzone /
// PKU text format, its first game) goes to the service's review operation, and the review's
// page (the one `mjfast review` writes) opens from a link, in a new tab.

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { ask } from "./service.js";

let opened = null; // the object URL of the last review page, released when another replaces it

export function setUpReviews() {
  const input = $("review-file");
  input.addEventListener("change", async () => {
    const file = input.files[0];
    input.value = ""; // picking the same file again reviews it again
    if (!file) return;
    const error = $("review-error");
    const link = $("review-open");
    error.hidden = true;
    link.hidden = true;
    try {
      const result = await ask("review", { log: await file.text() });
      if (opened !== null) URL.revokeObjectURL(opened);
      opened = URL.createObjectURL(new Blob([result.html], { type: "text/html" }));
      link.href = opened;
      link.textContent = t("review_open", { match: result.match_id, decisions: result.decisions });
      link.hidden = false;
      link.focus();
    } catch (failure) {
      error.textContent = `${file.name}: ${failure.message}`;
      error.hidden = false;
    }
  });
}
