// The page's start: the two views, the tabs, the language switch, the address, the keys.

import { AdviceView } from "./advice.js";
import { CalculatorView } from "./calculator.js";
import { $ } from "./dom.js";
import { applyLanguage, currentLanguage, setLanguage, t } from "./i18n.js";
import { setUpReviews } from "./review.js";
import { ask, whenSlow } from "./service.js";
import { address, readAddress, writeAddress } from "./state.js";

const VIEWS = ["advice", "calc"];

const app = {
  active: "advice",
  ready: false, // the address is written only once the one it was opened with is shown
  saveAddress(view) {
    if (!app.ready || views[app.active] !== view) return;
    writeAddress(app.active, view.params());
    const link = $(`${app.active}-link`);
    link.href = location.href;
  },
  async scoreInCalculator(params) {
    show("calc");
    await views.calc.load(params);
  },
};

const views = { advice: new AdviceView(app), calc: new CalculatorView(app) };

function show(name) {
  app.active = VIEWS.includes(name) ? name : "advice";
  for (const view of VIEWS) {
    $(`view-${view}`).hidden = view !== app.active;
    $(`tab-${view}`).setAttribute("aria-selected", String(view === app.active));
  }
  app.saveAddress(views[app.active]);
}

async function openAddress() {
  const { view, params } = readAddress();
  app.ready = false;
  show(view);
  await views[app.active].load(params);
  app.ready = true;
  app.saveAddress(views[app.active]);
}

function switchLanguage() {
  setLanguage(currentLanguage() === "zh" ? "en" : "zh");
  for (const view of Object.values(views)) view.relabel();
}

async function copyLink(event) {
  event.preventDefault();
  const link = event.currentTarget;
  try {
    await navigator.clipboard.writeText(location.href);
    link.dataset.copied = t("copied");
  } catch {
    link.dataset.copied = location.href; // no clipboard: show it to copy by hand
  }
  setTimeout(() => delete link.dataset.copied, 2500);
}

function typing(target) {
  return target.closest("input, select, textarea, [contenteditable]") !== null;
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && typing(event.target)) {
    event.target.blur();
    return;
  }
  if (typing(event.target) || $("help").open || event.altKey) return;
  if ((event.key === "Enter" || event.key === " ") && event.target.closest("button, a, summary")) return;
  const plain = !event.ctrlKey && !event.metaKey;
  let handled = true;
  if (event.key === "/" && plain) $(`${app.active}-hand`).focus();
  else if (event.key === "a" && plain) show("advice");
  else if (event.key === "c" && plain) show("calc");
  else if (event.key === "l" && plain) switchLanguage();
  else if (event.key === "?") $("help").showModal();
  else handled = app.active === "advice" && views.advice.key(event);
  if (handled) event.preventDefault();
});

for (const view of VIEWS) {
  $(`tab-${view}`).addEventListener("click", () => show(view));
  $(`${view}-link`).addEventListener("click", copyLink);
}
$("lang").addEventListener("click", switchLanguage);
setUpReviews();
$("help-open").addEventListener("click", () => $("help").showModal());
$("help-close").addEventListener("click", () => $("help").close());
whenSlow((slow) => {
  $("slow").hidden = !slow;
});
window.addEventListener("hashchange", () => {
  // a link pasted into this tab, or one edited by hand
  if (location.hash !== address(app.active, views[app.active].params())) openAddress();
});

applyLanguage();
for (const view of Object.values(views)) view.relabel();
ask("version").then((v) => {
  $("version").textContent = `mjfast ${v.mjfast} · protocol ${v.protocol}`;
}).catch(() => {});
openAddress();
