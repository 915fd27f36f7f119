// МХП — the table companion: the page of `mhp serve`.
//
// Plain modern JavaScript, no build step and nothing from the network but this server's own API.
// The server is the referee: the page only shows what the API answers (the state, or one
// player's view of it, the legal actions, every ruling with its rule IDs) and sends the actions
// the players tap. Rules are never decided here.

import { api } from "./api.js";
import { renderField, renderTable } from "./board.js";
import { checkMission, renderChecker } from "./checker.js";
import { showLog, showScore, showSeat } from "./dialogs.js";
import { closeSheet, toast } from "./dom.js";
import { chooseSeatFirst, closeGame, neededViewer, openGame, releaseWake, showHandover, undo } from "./game.js";
import { randomSeed, renderHome, startGame } from "./home.js";
import { $, S, STORE, t } from "./state.js";

// --- Language --------------------------------------------------------------------------------

function applyLanguage() {
  document.documentElement.lang = S.lang;
  $("lang-button").textContent = S.lang === "ru" ? "EN" : "RU";
  document.title = `МХП — ${t("title")}`;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of document.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  for (const node of document.querySelectorAll("[data-i18n-placeholder]")) node.placeholder = t(node.dataset.i18nPlaceholder);
}

// --- Screens and routing ---------------------------------------------------------------------

function route() {
  const hash = location.hash || "";
  const game = hash.match(/^#\/game\/([0-9a-f]{8})$/);
  if (game) return { screen: "table", id: game[1] };
  if (hash === "#/checker") return { screen: "checker" };
  if (hash === "" || hash === "#" || hash === "#/") {
    const last = localStorage.getItem(STORE.game);
    if (last && hash === "") return { screen: "table", id: last, restored: true };
  }
  return { screen: "home" };
}

export function show(screen) {
  for (const name of ["home", "table", "checker"]) $(`screen-${name}`).hidden = name !== screen;
  $("dock").hidden = screen !== "table";
  $("checker-back").hidden = !(screen === "checker" && S.game);
  for (const id of ["undo-button", "log-button", "score-button", "seat-button"]) $(id).hidden = screen !== "table";
  $("dock-checker").hidden = screen !== "table";
  document.body.dataset.screen = screen;
}

async function onRoute() {
  const where = route();
  if (where.screen === "table") {
    if (where.restored) history.replaceState(null, "", `#/game/${where.id}`);
    show("table");
    await openGame(where.id);
  } else if (where.screen === "checker") {
    // The checker keeps the open game (its hand can be checked, and back is one tap).
    releaseWake();
    show("checker");
    renderChecker();
  } else {
    closeGame();
    show("home");
    await renderHome();
  }
}

// --- Start -----------------------------------------------------------------------------------

async function main() {
  applyLanguage();
  $("lang-button").addEventListener("click", () => {
    S.lang = S.lang === "ru" ? "en" : "ru";
    localStorage.setItem(STORE.lang, S.lang);
    applyLanguage();
    const where = route();
    if (where.screen === "home") renderHome();
    else if (where.screen === "checker") renderChecker();
    else if (S.game?.state) renderTable();
    else if (S.game && S.seat === null) chooseSeatFirst(S.game.id).catch(fail);
    else if (S.game) showHandover(neededViewer(S.game));
  });
  $("home-button").addEventListener("click", () => {
    localStorage.removeItem(STORE.game);
    location.hash = "#/";
  });
  $("new-game").addEventListener("submit", startGame);
  $("seed-new").addEventListener("click", () => ($("seed").value = randomSeed()));
  $("undo-button").addEventListener("click", undo);
  $("log-button").addEventListener("click", showLog);
  $("score-button").addEventListener("click", showScore);
  $("seat-button").addEventListener("click", showSeat);
  $("dialog-close").addEventListener("click", closeSheet);
  $("dialog").addEventListener("click", (event) => {
    if (event.target === $("dialog")) closeSheet();
  });
  $("checker-search").addEventListener("input", (event) => {
    S.checker.query = event.target.value;
    renderChecker();
  });
  $("checker-clear").addEventListener("click", () => {
    S.checker.counts.clear();
    S.checker.ruling = null;
    renderChecker();
  });
  $("checker-check").addEventListener("click", checkMission);
  $("checker-back").addEventListener("click", () => {
    if (S.game) location.hash = `#/game/${S.game.id}`;
  });
  window.addEventListener("hashchange", () => onRoute().catch(fail));
  window.addEventListener("resize", () => S.game?.state && renderField(S.game.state));
  try {
    S.catalog = (await api("/api/catalog")).data;
  } catch (error) {
    return fail(error);
  }
  await onRoute().catch(fail);
  document.body.dataset.ready = "true";
}

function fail(error) {
  toast(error.message || String(error));
  document.body.dataset.ready = "true";
}

main();
