// МХП — the table companion: the page of `mhp serve`.
//
// Plain modern JavaScript, no build step and nothing from the network but this server's own API.
// The server is the referee: the page only shows what the API answers (the state, or one
// player's view of it, the legal actions, every ruling with its rule IDs) and sends the actions
// the players tap. Rules are never decided here.

import { STRINGS } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const STORE = {
  lang: "mhp.lang",
  game: "mhp.game",
  seat: (id) => `mhp.seat.${id}`,
};
const KIND_ORDER = ["fight", "move", "claim", "take", "react", "buy", "warehouse", "sell", "free", "trade", "end"];
const FOLD = 6; // buttons of one kind shown before "show all"

const S = {
  lang: localStorage.getItem(STORE.lang) || ((navigator.language || "ru").startsWith("ru") ? "ru" : "en"),
  catalog: null,
  rules: null, // id -> rule (rules, rulings and house rules)
  game: null, // the last answer about the open game: {id, version, viewer, state, pending, score, end, turn, …}
  legal: null, // {version, player, actions}
  seat: "pass", // "pass" (pass-and-play) or a colour
  confirmed: null, // pass-and-play: the player who took the phone
  ruling: null, // {ruling, events, note, kind}
  picked: null, // a cell tapped that several moves end on
  source: null, // EventSource of the open game
  wake: null, // WakeLockSentinel
  checker: { mission: null, counts: new Map(), query: "", ruling: null },
  busy: false,
};

const t = (key, ...args) => {
  const value = STRINGS[S.lang][key] ?? STRINGS.en[key] ?? key;
  return typeof value === "function" ? value(...args) : value;
};
const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);
const pick = (texts) => (texts && (texts[S.lang] ?? texts.en ?? texts.ru)) || "";

// --- HTML helpers --------------------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** A formula with true subscripts: Fe2O3 → Fe₂O₃ (coefficients after · stay full size). */
function formulaHtml(formula) {
  return escapeHtml(formula).replace(/([A-Za-z)\]])(\d+)/g, "$1<sub>$2</sub>");
}
const formulaNode = (formula) => h("span", { class: "formula", html: formulaHtml(formula) });

/** Element counts in Hill order (C, H, then alphabetical; alphabetical without carbon). */
function hill(counts) {
  const keys = Object.keys(counts || {}).filter((k) => counts[k]);
  if (!keys.length) return "—";
  const rest = keys.filter((k) => !(keys.includes("C") && (k === "C" || k === "H"))).sort();
  const order = keys.includes("C") ? ["C", ...(keys.includes("H") ? ["H"] : []), ...rest] : keys.sort();
  return order.map((k) => k + (counts[k] === 1 ? "" : counts[k])).join("");
}

// --- The API -------------------------------------------------------------------------------

class ApiFailure extends Error {
  constructor(status, body) {
    super(body?.error?.message || body?.message || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
  get ruling() {
    const b = this.body;
    return b.ruling || b.error?.ruling || b.error?.details?.ruling || b.details?.ruling || null;
  }
}

async function api(path, body, method) {
  const options = { method: method || (body === undefined ? "GET" : "POST"), headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiFailure(0, { error: { message: t("offline") } });
  }
  const text = await response.text();
  let data = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = { error: { message: text.slice(0, 300) } };
  }
  if (!response.ok) throw new ApiFailure(response.status, data);
  return { status: response.status, data };
}

// --- Catalog lookups -------------------------------------------------------------------------

const rawKind = (card) => String(card).split("#")[0];
const isHidden = (card) => /^hidden(-fate)?#/.test(card);
function rawInfo(card) {
  const kind = rawKind(card);
  return S.catalog?.raw_materials.find((r) => r.id === kind) || null;
}
function colour(id) {
  return S.catalog?.colours.find((c) => c.id === id) || { id, name: { ru: id, en: id }, rgb: "#888" };
}
// A player's colour name; in Russian declined by case («обмен с Красным»), from the catalog.
const colourName = (id, grammaticalCase = "nom") =>
  (S.lang === "ru" && colour(id).cases?.ru?.[grammaticalCase]) || pick(colour(id).name) || id;
const dot = (id) => h("span", { class: "dot", style: `background:${colour(id).rgb}`, "aria-hidden": "true" });
const who = (id) => h("span", { class: "who-inline" }, dot(id), " ", colourName(id));

function cardNode(card, extra = "") {
  if (isHidden(card)) return h("span", { class: `card hidden ${extra}`, title: "?" }, "?");
  const info = rawInfo(card);
  if (!info) return h("span", { class: `card ${extra}` }, h("span", { class: "f" }, card));
  return h(
    "span",
    { class: `card ${extra}`, title: card, dataset: { card } },
    h("span", { class: "f" }, formulaNode(info.formula)),
    h("span", { class: "n" }, pick(info.name)),
  );
}
/** A referee text with card IDs (hematite#2) written as the cards' formulas (Fe2O3). */
function cardsInText(text) {
  return String(text || "").replace(/\b(hidden(?:-fate)?|[a-z][a-z0-9-]*)#\d+\b/g, (id) => {
    if (isHidden(id)) return "▒";
    const info = rawInfo(id);
    return info ? info.formula : id;
  });
}

const cardText = (card) => {
  if (isHidden(card)) return t("hidden_card");
  const info = rawInfo(card);
  return info ? `${info.formula} ${pick(info.name).toLowerCase()}` : card;
};

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

// --- Rulings and rule texts ------------------------------------------------------------------

async function loadRules() {
  if (S.rules) return S.rules;
  const { data } = await api("/api/rules");
  S.rules = new Map();
  for (const rule of [...(data.rules || []), ...(data.house_rules || [])]) S.rules.set(rule.id, rule);
  return S.rules;
}

async function showRule(id) {
  openSheet(`${t("rule")} ${id}`, h("p", { class: "hint" }, t("rule_loading")));
  let rule = null;
  try {
    rule = (await loadRules()).get(id);
    if (!rule) rule = (await api(`/api/rules/${encodeURIComponent(id)}`)).data;
  } catch (error) {
    setSheet(`${t("rule")} ${id}`, h("p", { class: "form-error" }, error.message));
    return;
  }
  const body = h(
    "div",
    { class: "rule-text", dataset: { rule: id } },
    h("h3", {}, pick(rule.title)),
    rule.kind === "ruling" && rule.ruling_for ? h("p", { class: "hint" }, t("ruling_for", rule.ruling_for)) : null,
    rule.kind === "house-rule" ? h("p", { class: "hint" }, t("house_rule")) : null,
    h("p", {}, pick(rule.text)),
    (rule.refs || []).length ? h("div", { class: "rules" }, rule.refs.map(ruleChip)) : null,
  );
  setSheet(`${t("rule")} ${id}`, body);
}

const ruleChip = (id) =>
  h("button", { type: "button", class: "rule-id", dataset: { rule: id }, onclick: () => showRule(id) }, id);

/** A ruling as the players read it: verdict, reason, rule IDs (one tap to the text), events. */
function rulingNode(ruling, { events = [], note = "", extra = null } = {}) {
  const good = ["allowed", "complete", "score", "ended", "in-progress", "proposal"].includes(ruling.verdict);
  return wrapRuling(good, ruling, events, note, extra);
}

function wrapRuling(good, ruling, events, note, extra) {
  const box = document.createElement("div");
  box.className = good ? "ok" : "bad";
  box.dataset.verdict = ruling.verdict;
  box.append(
    h("div", { class: "verdict" }, t("verdicts")[ruling.verdict] || ruling.verdict),
    h("p", { class: "reason" }, cardsInText(pick(ruling.reason))),
  );
  if (extra) box.append(extra);
  if (events.length) box.append(h("ul", { class: "events" }, events.map((e) => h("li", {}, cardsInText(pick(e))))));
  if (note) box.append(h("p", { class: "note" }, note));
  box.append(h("div", { class: "rules" }, [...(ruling.rules || []), ...(ruling.house_rules || [])].map(ruleChip)));
  return box;
}

function showRuling(target, ruling, options = {}) {
  const node = $(target);
  if (!ruling) {
    node.hidden = true;
    node.replaceChildren();
    return;
  }
  const inner = rulingNode(ruling, options);
  node.className = `ruling ${inner.className}`;
  node.dataset.verdict = ruling.verdict;
  node.replaceChildren(...inner.childNodes);
  node.hidden = false;
}

// --- Sheets and toasts -----------------------------------------------------------------------

function openSheet(title, body) {
  setSheet(title, body);
  const dialog = $("dialog");
  if (!dialog.open) dialog.showModal();
}
function setSheet(title, body) {
  $("dialog-title").textContent = title;
  $("dialog-body").replaceChildren(body);
}
function closeSheet() {
  const dialog = $("dialog");
  if (dialog.open) dialog.close();
}
let toastTimer = 0;
function toast(text) {
  const node = $("toast");
  node.textContent = text;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (node.hidden = true), 3500);
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

function show(screen) {
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

// --- Home: new game, saved games, join -------------------------------------------------------

const form = { level: "1", players: 2, shape: "rectangle", house: new Set() };

function choiceButtons(container, items, current, onPick) {
  $(container).replaceChildren(
    ...items.map(({ value, label, sub }) =>
      h(
        "button",
        {
          type: "button",
          role: "radio",
          "aria-checked": String(String(value) === String(current)),
          dataset: { value: String(value) },
          onclick: () => onPick(value),
        },
        label,
        sub ? h("span", { class: "sub" }, sub) : null,
      ),
    ),
  );
}

function renderForm() {
  const cat = S.catalog;
  choiceButtons(
    "level-choices",
    cat.levels.map((level) => ({ value: level, label: t("level_names")[level] || level, sub: t("level_hint")[level] })),
    form.level,
    (level) => {
      form.level = level;
      if (level === "1v1") form.players = 2;
      renderForm();
    },
  );
  const counts = [];
  for (let n = cat.players.min; n <= cat.players.max; n += 1) counts.push({ value: n, label: String(n) });
  choiceButtons("player-choices", form.level === "1v1" ? counts.filter((c) => c.value === 2) : counts, form.players, (n) => {
    form.players = n;
    renderForm();
  });
  $("shape-field").hidden = !["1", "3"].includes(form.level);
  choiceButtons(
    "shape-choices",
    cat.shapes.map((shape) => ({ value: shape, label: t("shapes")[shape] || shape })),
    form.shape,
    (shape) => {
      form.shape = shape;
      renderForm();
    },
  );
  $("house-rules").replaceChildren(
    ...cat.house_rules
      .filter((rule) => !rule.default)
      .map((rule) =>
        h(
          "label",
          {},
          h("input", {
            type: "checkbox",
            name: rule.id,
            checked: form.house.has(rule.id),
            onchange: (event) => {
              if (event.target.checked) form.house.add(rule.id);
              else form.house.delete(rule.id);
            },
          }),
          h("span", {}, h("b", {}, pick(rule.title)), h("small", {}, `${rule.id} · ${pick(rule.text)}`)),
        ),
      ),
  );
}

const randomSeed = () => Math.floor(Math.random() * 1_000_000);

async function renderHome() {
  renderForm();
  if (!$("seed").value) $("seed").value = randomSeed();
  try {
    const { data } = await api("/api/games");
    const games = data.games || [];
    $("saved-empty").hidden = games.length > 0;
    $("saved-games").replaceChildren(
      ...games.slice(0, 30).map((game) =>
        h(
          "li",
          {},
          h(
            "button",
            { type: "button", dataset: { game: game.id }, onclick: () => (location.hash = `#/game/${game.id}`) },
            h(
              "span",
              {},
              h("b", {}, t("levels")[game.level] || game.level),
              " ",
              h("span", {}, game.players.map((p) => dot(p))),
              h("br"),
              h(
                "span",
                { class: "meta" },
                `${game.id} · ${t("round", game.round)}${game.ended ? ` · ${t("ended_tag")}` : ""} · ${formatTime(game.updated)}`,
              ),
            ),
            h("span", { "aria-hidden": "true" }, "›"),
          ),
        ),
      ),
    );
  } catch (error) {
    $("saved-empty").hidden = false;
    $("saved-empty").textContent = error.message;
  }
  renderJoin();
}

function formatTime(value) {
  if (!value) return "";
  const date = typeof value === "number" ? new Date(value * (value < 1e12 ? 1000 : 1)) : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(S.lang === "ru" ? "ru-RU" : "en-GB", { dateStyle: "short", timeStyle: "short" });
}

let joinInfo;
/** The join URL and its QR code for a LAN host (null on a loopback host). */
async function loadJoin() {
  if (joinInfo !== undefined) return joinInfo;
  try {
    const { data } = await api("/api/join");
    const urls = (data.urls || []).filter((u) => !/^https?:\/\/(127\.|localhost|\[::1\])/.test(u));
    joinInfo = urls.length && data.qr_svg ? { url: urls[0], svg: data.qr_svg } : null;
  } catch {
    joinInfo = null;
  }
  return joinInfo;
}

function joinNode(info) {
  return h("div", { class: "join" }, h("p", { class: "hint" }, t("join_hint")), h("div", { class: "qr", html: info.svg }), h("p", { class: "join-url" }, info.url));
}

async function renderJoin() {
  const info = await loadJoin();
  $("join-panel").hidden = !info;
  if (!info) return;
  $("join-qr").innerHTML = info.svg;
  $("join-url").textContent = info.url;
}

async function startGame(event) {
  event.preventDefault();
  const error = $("new-game-error");
  error.hidden = true;
  const seedText = $("seed").value.trim();
  const body = {
    level: form.level,
    players: form.players,
    seed: seedText === "" ? null : Number(seedText),
    house_rules: [...form.house],
    shape: form.shape,
  };
  $("start-game").disabled = true;
  try {
    const { data } = await api("/api/games", body);
    S.ruling = null;
    location.hash = `#/game/${data.id}`;
  } catch (failure) {
    error.textContent = failure.message;
    error.hidden = false;
  } finally {
    $("start-game").disabled = false;
  }
}

// --- The open game ---------------------------------------------------------------------------

function closeGame() {
  if (S.source) S.source.close();
  S.source = null;
  releaseWake();
  $("live").hidden = true;
  S.game = null;
  S.legal = null;
}

async function openGame(id) {
  if (S.game?.id !== id) {
    closeGame();
    S.ruling = null;
    S.picked = null;
    S.seat = localStorage.getItem(STORE.seat(id)) || "pass";
    S.confirmed = sessionStorage.getItem(STORE.seat(id)) || null;
  }
  try {
    await refresh(id);
  } catch (error) {
    if (error.status === 404) {
      localStorage.removeItem(STORE.game);
      location.hash = "#/";
      toast(error.message);
      return;
    }
    throw error;
  }
  localStorage.setItem(STORE.game, id);
  listen(id);
  requestWake();
}

/** Whose eyes the phone shows now: a fixed seat, or in pass-and-play the player who must act. */
function neededViewer(game) {
  if (S.seat !== "pass") return S.seat;
  if (game.pending) return game.pending.to;
  return game.turn;
}

async function refresh(id = S.game?.id) {
  if (!id) return;
  const asked = S.seat !== "pass" ? S.seat : S.confirmed;
  const query = asked ? `?player=${encodeURIComponent(asked)}` : "";
  const { data } = await api(`/api/games/${id}${query}`);
  await receive(data);
}

/** Take an answer about the game (from GET or after a change) and draw the table. */
async function receive(data) {
  // A change's answer carries the state but not the summary: whose turn it is comes from it.
  if (data.turn === undefined && data.state) data = { ...data, turn: data.state.players[data.state.turn].id };
  if (data.players === undefined && data.state) data = { ...data, players: data.state.players.map((p) => p.id) };
  const need = neededViewer(data);
  if (S.seat === "pass" && S.confirmed !== need && !data.state?.ended) {
    // The last ruling was the previous player's: its events may name cards only they saw.
    S.ruling = null;
    S.game = { ...data, state: null };
    S.legal = null;
    showHandover(need);
    return;
  }
  if (data.viewer !== need && need) {
    const again = await api(`/api/games/${data.id}?player=${encodeURIComponent(need)}`);
    data = again.data;
  }
  S.game = data;
  $("handover").hidden = true;
  S.legal = null;
  const state = data.state;
  const acting = data.pending ? data.pending.to : data.turn;
  if (!state.ended && (data.viewer === data.turn || state.fight) && !data.pending) {
    try {
      S.legal = (await api(`/api/games/${data.id}/legal?player=${encodeURIComponent(data.viewer || data.turn)}`)).data;
    } catch (error) {
      S.legal = null;
    }
  }
  S.acting = acting;
  renderTable();
}

function showHandover(player) {
  $("handover-who").replaceChildren(dot(player), colourName(player));
  $("handover-ok").textContent = t("i_am", colourName(player));
  $("handover-ok").onclick = async () => {
    S.confirmed = player;
    sessionStorage.setItem(STORE.seat(S.game.id), player);
    $("handover").hidden = true;
    await refresh();
  };
  $("handover").hidden = false;
  renderTableSkeleton();
}

function renderTableSkeleton() {
  for (const id of ["status", "actions", "hand-panel", "players-panel", "mission-panel", "supply-panel", "installations-panel", "fight-panel", "trade-offer"]) {
    $(id).replaceChildren();
  }
  $("field").replaceChildren();
}

function listen(id) {
  if (S.source || !window.EventSource) return;
  const source = new EventSource(`/api/games/${id}/events`);
  S.source = source;
  source.onopen = () => {
    $("live").hidden = false;
    $("live").classList.remove("off");
  };
  source.onerror = () => $("live").classList.add("off");
  const onChange = async (message) => {
    let data = {};
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    if (!S.game) return;
    if (data.version !== undefined && data.version <= S.game.version) return;
    if (S.busy) {
      S.stale = true; // fetched again once the answer being waited for has come
      return;
    }
    await refresh().catch(() => {});
  };
  source.addEventListener("change", onChange);
  source.onmessage = onChange;
}

// Screen Wake Lock: the screen stays on while a game is open (secure contexts only).
async function requestWake() {
  if (!("wakeLock" in navigator) || S.wake || document.visibilityState !== "visible") return;
  try {
    S.wake = await navigator.wakeLock.request("screen");
    S.wake.addEventListener("release", () => {
      S.wake = null;
      delete document.body.dataset.wake;
    });
    document.body.dataset.wake = "on";
  } catch {
    document.body.dataset.wake = "refused";
  }
}
function releaseWake() {
  if (S.wake) S.wake.release().catch(() => {});
  S.wake = null;
  delete document.body.dataset.wake;
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && S.game) requestWake();
});

// --- Playing ---------------------------------------------------------------------------------

/** Send an action; show its ruling; 422: explained and nothing applied; 409: fetch again. */
async function play(action, { label } = {}) {
  if (!S.game || S.busy) return;
  S.busy = true;
  S.picked = null;
  const body = { action, version: S.game.version, player: S.game.viewer || undefined };
  try {
    const { status, data } = await api(`/api/games/${S.game.id}/actions`, body);
    if (status === 202 && data.proposal) {
      S.ruling = { ruling: { ...data.ruling, verdict: "proposal" }, events: [], note: t("proposal_wait", colourName(data.proposal.to, "gen")) };
    } else {
      S.ruling = { ruling: data.ruling, events: data.events || [] };
    }
    await receive(data);
  } catch (failure) {
    if (failure.status === 422 && failure.ruling) {
      S.ruling = { ruling: failure.ruling, events: [], note: t("nothing_applied") };
      renderTable();
    } else if (failure.status === 409) {
      toast(t("stale"));
      await refresh().catch(() => {});
    } else {
      S.ruling = {
        ruling: { verdict: "forbidden", reason: { ru: failure.message, en: failure.message }, rules: [] },
        events: [],
        note: label || "",
      };
      renderTable();
    }
  } finally {
    S.busy = false;
    catchUp();
  }
}

/** A change announced while an answer was awaited: fetch the game again if it is newer. */
function catchUp() {
  if (!S.stale) return;
  S.stale = false;
  refresh().catch(() => {});
}

async function undo() {
  if (!S.game || S.busy) return;
  S.busy = true;
  try {
    const { data } = await api(`/api/games/${S.game.id}/undo`, { version: S.game.version, player: S.game.viewer || undefined });
    toast(t("undone", (data.undone || []).length));
    S.ruling = null;
    await receive(data);
  } catch (failure) {
    if (failure.status === 409 && failure.body?.error?.code === "nothing-to-undo") {
      toast(`${t("nothing_to_undo")}: ${pick(failure.body.error.reason) || failure.message}`);
    } else if (failure.status === 409) {
      toast(t("stale"));
      await refresh().catch(() => {});
    } else toast(failure.message);
  } finally {
    S.busy = false;
    catchUp();
  }
}

async function answerProposal(accept) {
  const pending = S.game?.pending;
  if (!pending) return;
  S.busy = true;
  try {
    const path = `/api/games/${S.game.id}/proposals/${pending.id}/${accept ? "accept" : "decline"}`;
    const { data } = await api(path, { version: S.game.version, player: S.game.viewer || undefined });
    if (accept && data.ruling) S.ruling = { ruling: data.ruling, events: data.events || [], note: t("accepted") };
    else S.ruling = null;
    if (!accept) toast(t("declined"));
    await receive(data);
  } catch (failure) {
    if (failure.ruling) S.ruling = { ruling: failure.ruling, events: [], note: t("nothing_applied") };
    else toast(failure.message);
    await refresh().catch(() => {});
  } finally {
    S.busy = false;
    catchUp();
  }
}

// --- Drawing the table -----------------------------------------------------------------------

const cellKey = (x, y) => `${x},${y}`;
const cellLabel = ([x, y]) => `(${x}, ${y})`;

function legalOf(kind) {
  return (S.legal?.actions || []).filter((item) => item.kind === kind);
}

function renderTable() {
  const game = S.game;
  if (!game?.state) return;
  const state = game.state;
  renderStatus(game);
  renderEnd(game);
  renderOffer(game);
  showRuling("ruling", S.ruling?.ruling, S.ruling || {});
  renderField(state);
  renderFight(state);
  renderActions(game);
  renderHand(state, game.viewer);
  renderPlayers(state);
  renderMissions(state);
  renderSupply(state);
  renderInstallations(state);
}

function renderStatus(game) {
  const state = game.state;
  const mine = game.viewer === game.turn;
  $("status").replaceChildren(
    state.ended
      ? h("span", { class: "who" }, t("game_over"))
      : h("span", { class: "who", dataset: { turn: game.turn } }, t("turn_of"), ": ", dot(game.turn), colourName(game.turn), mine ? h("span", { class: "chip" }, t("your_turn")) : null),
    h("span", { class: "meta" }, `${t("levels")[state.level] || state.level} · ${t("round", state.round)} · ${t("version", game.version)}`),
    game.viewer ? h("span", { class: "meta" }, t("you_see", colourName(game.viewer))) : null,
  );
}

function renderEnd(game) {
  $("end-banner")?.remove();
  const end = game.end;
  if (!end) return;
  // The end and its winners, on top of the table.
  $("status").after(
    h(
      "div",
      { class: "end-banner", id: "end-banner", dataset: { code: end.code } },
      h("h2", {}, t("game_over")),
      h("p", {}, capital(pick(end.reason))),
      h("p", { id: "end-winners" }, h("b", {}, `${t("winners", (end.winners || []).length)}: `), (end.winners || []).map((w) => [dot(w), " ", colourName(w), " "])),
      h("div", { class: "rules" }, (end.rules || []).map(ruleChip)),
      h("button", { type: "button", class: "secondary", onclick: showScore }, t("score")),
    ),
  );
}

function renderOffer(game) {
  const box = $("trade-offer");
  const pending = game.pending;
  if (!pending) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const mine = game.viewer === pending.to || (S.seat === "pass" && S.confirmed === pending.to);
  box.replaceChildren(
    h("p", {}, h("b", {}, t("proposal_from", colourName(pending.from), colourName(pending.to, "dat")))),
    h("p", { class: "offer-text" }, describe({ kind: pending.action.kind, action: pending.action, text: pending.text })),
    mine
      ? h(
          "div",
          { class: "row" },
          h("button", { type: "button", class: "secondary", id: "decline", onclick: () => answerProposal(false) }, t("decline")),
          h("button", { type: "button", class: "primary", id: "accept", onclick: () => answerProposal(true) }, t("accept")),
        )
      : h("p", { class: "hint" }, t("proposal_wait", colourName(pending.to, "gen"))),
  );
  box.hidden = false;
}

function renderField(state) {
  const wrap = $("field-wrap");
  const field = state.field;
  if (!field) {
    wrap.hidden = true;
    return;
  }
  wrap.hidden = false;
  const cells = new Map(field.cells.map((cell) => [cellKey(cell.x, cell.y), cell]));
  const base = field.base;
  const xs = [base[0], ...field.cells.map((c) => c.x)];
  const ys = [base[1], ...field.cells.map((c) => c.y)];
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const columns = x1 - x0 + 1;
  // Fit the field to the phone's width, within tap-friendly bounds.
  const room = Math.min(window.innerWidth, 720) - 36;
  const size = Math.max(30, Math.min(52, Math.floor((room - (columns - 1) * 3) / columns)));
  const grid = $("field");
  grid.style.setProperty("--cell", `${size}px`);
  grid.style.gridTemplateColumns = `repeat(${columns}, ${size}px)`;
  const combines = new Map();
  for (const player of state.players) {
    if (!player.combine) continue;
    const key = cellKey(...player.combine.position);
    combines.set(key, [...(combines.get(key) || []), player]);
  }
  const moves = legalOf("move");
  const ends = new Map();
  for (const item of moves) {
    const path = item.action.path;
    const key = cellKey(...path[path.length - 1]);
    ends.set(key, [...(ends.get(key) || []), item]);
  }
  const picked = S.picked;
  const nodes = [];
  for (let y = y0; y <= y1; y += 1) {
    for (let x = x0; x <= x1; x += 1) {
      const key = cellKey(x, y);
      const cell = cells.get(key);
      const isBase = base[0] === x && base[1] === y;
      if (!cell && !isBase) {
        nodes.push(h("span", { class: "gap", "aria-hidden": "true" }));
        continue;
      }
      const here = combines.get(key) || [];
      const classes = ["cell", isBase ? "base" : cell.raw ? "raw" : "empty"];
      if (ends.has(key)) classes.push("legal");
      if (picked && picked.key === key) classes.push("picked");
      if (picked && picked.steps.has(key)) classes.push("step");
      const label = `${cellLabel([x, y])}${isBase ? " Base" : ""}${cell?.raw ? " ●" : ""}${here.length ? ` ${here.map((p) => colourName(p.id)).join(", ")}` : ""}`;
      nodes.push(
        h(
          "button",
          {
            type: "button",
            class: classes.join(" "),
            dataset: { x, y },
            "aria-label": label,
            title: label,
            onclick: () => tapCell(x, y),
          },
          here.map((p) =>
            h("span", { class: `combine${here.length > 2 ? " n3" : here.length > 1 ? " n2" : ""}`, style: `background:${colour(p.id).rgb}`, dataset: { player: p.id } }),
          ),
        ),
      );
    }
  }
  grid.replaceChildren(...nodes);
  const mine = S.game.viewer === S.game.turn;
  $("field-hint").textContent = mine && !state.ended ? (moves.length ? t("tap_cell") : t("tap_cell_done")) : "";
  renderPathChoice();
}

/** A tapped cell: the move that ends there; several ways: choose; none: ask the referee anyway. */
function tapCell(x, y) {
  if (!S.game || S.game.state.ended) return;
  const key = cellKey(x, y);
  const options = legalOf("move").filter((item) => {
    const path = item.action.path;
    return cellKey(...path[path.length - 1]) === key;
  });
  if (options.length === 1) return play(options[0].action, { label: options[0].text });
  if (options.length > 1) {
    const steps = new Set(options.flatMap((item) => item.action.path.slice(0, -1).map((p) => cellKey(...p))));
    S.picked = { key, options, steps };
    renderField(S.game.state);
    return;
  }
  // Not a listed move: the referee says why (nothing is applied).
  return play(`move ${x},${y}`, { label: `move ${x},${y}` });
}

function renderPathChoice() {
  const box = $("path-choice");
  const picked = S.picked;
  if (!picked) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.replaceChildren(
    h("span", { class: "hint" }, t("choose_path")),
    ...picked.options.map((item) => {
      const path = item.action.path;
      const via = path.slice(0, -1).map(cellLabel).join(" → ");
      return h("button", { type: "button", onclick: () => play(item.action, { label: item.text }) }, via ? t("via", via) : t("move_to", cellLabel(path[path.length - 1])));
    }),
    h("button", { type: "button", class: "secondary", onclick: () => { S.picked = null; renderField(S.game.state); } }, t("cancel")),
  );
  box.hidden = false;
}

function renderFight(state) {
  const panel = $("fight-panel");
  const fight = state.fight;
  if (!fight || state.ended) {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  const defender = state.players.find((p) => p.id === fight.defender);
  const armoured = Boolean(defender?.combine?.armour);
  const rolls = { a: 0, d: 0, d2: 0 };
  const picker = (key) => {
    const row = h("div", { class: "die-pick", role: "group" });
    for (let n = 1; n <= 6; n += 1) {
      row.append(
        h(
          "button",
          {
            type: "button",
            "aria-pressed": "false",
            dataset: { die: key, value: n },
            onclick: (event) => {
              rolls[key] = n;
              for (const b of row.children) b.setAttribute("aria-pressed", String(b === event.currentTarget));
              enter.disabled = !(rolls.a && rolls.d && (!armoured || rolls.d2));
            },
          },
          String(n),
        ),
      );
    }
    return row;
  };
  const enter = h(
    "button",
    {
      type: "button",
      class: "secondary big",
      id: "fight-enter",
      disabled: true,
      onclick: () => play(`fight ${rolls.a}:${rolls.d}${armoured ? `,${rolls.d2}` : ""}`),
    },
    t("fight_enter"),
  );
  panel.className = "panel fight";
  panel.replaceChildren(
    h("h2", {}, t("fight_title")),
    h("p", {}, dot(fight.attacker), " ", t("fight_vs", colourName(fight.attacker), colourName(fight.defender, "acc")), " ", dot(fight.defender)),
    h("button", { type: "button", class: "primary big", id: "fight-roll", onclick: () => play({ kind: "fight" }) }, "🎲 ", t("fight_roll")),
    h("p", { class: "hint" }, t("fight_real")),
    h(
      "div",
      { class: "dice" },
      h("label", {}, t("attacker"), picker("a")),
      h("label", {}, t("defender"), picker("d")),
      armoured ? h("label", {}, t("defender_second"), picker("d2")) : null,
    ),
    enter,
  );
  panel.hidden = false;
}

/** An action in words, with the cards by formula and name. */
function describe(item) {
  const a = item.action;
  const cards = (list) => (list || []).map(cardText).join(", ");
  switch (item.kind) {
    case "move": {
      const path = a.path;
      const via = path.slice(0, -1).map(cellLabel).join(" → ");
      return `${t("move_to", cellLabel(path[path.length - 1]))}${via ? ` ${t("via", via)}` : ""}`;
    }
    case "sell":
      return `${cardText(a.card)} → ${t("sell_to_bank")}`;
    case "warehouse":
      return `${cardText(a.card)} ${t("from_warehouse")}`;
    case "buy":
      return a.upgrade === "solar-battery" ? t("solar_battery") : t("armour_up");
    case "take": {
      const pile = S.game?.state?.piles?.[a.pile - 1] || [];
      const top = pile.length ? pile[pile.length - 1] : null;
      return top && !isHidden(top) ? `${t("take_pile", a.pile)}: ${cardText(top)}` : t("take_pile", a.pile);
    }
    case "react":
      return `${t("react_on", a.installation)}: ${cards(a.cards)}${a.missions?.length ? ` → ${a.missions.join(", ")}` : ""}`;
    case "free": {
      const place = a.product ? `${a.product.installation}:${a.product.card}:${a.product.container}` : "";
      const how = a.how === "dump" ? t("free_dump") : a.how === "sell-bank" ? t("free_bank", a.price) : t("free_to", colourName(a.partner, "dat"), a.price);
      return `${place} ${how}`;
    }
    case "trade": {
      const parts = [t("trade_with", colourName(a.partner, "ins"))];
      const give = [...(a.give || []).map(cardText), ...(a.give_product ? [`${a.give_product.installation}:${a.give_product.card}:${a.give_product.container}`] : [])];
      const get = [...(a.receive || []).map(cardText), ...(a.get_product ? [`${a.get_product.installation}:${a.get_product.card}:${a.get_product.container}`] : [])];
      if (give.length) parts.push(`${t("give")} ${give.join(", ")}`);
      if (get.length) parts.push(`${t("get")} ${get.join(", ")}`);
      if (a.pay) parts.push(`${t("pay")} ${a.pay}`);
      return parts.join(" · ");
    }
    case "claim":
      return t("claim_mission", a.mission);
    case "fight": {
      if (a.rounds?.length) return `🎲 ${a.rounds.map((r) => r.join(":")).join(" ")}`;
      const take = a.take === undefined || a.take === null ? "" : a.take.length ? `${t("fight_take")}: ${cards(a.take)}` : t("fight_take_none");
      const retreat = a.retreat ? t("fight_retreat", cellLabel(a.retreat)) : "";
      return `🎲 ${[take, retreat].filter(Boolean).join(" · ") || t("fight_roll")}`;
    }
    case "end":
      return t("end_turn");
    default:
      return item.text;
  }
}

/** What an action's button shows: a main line (formula, cell, partner) and a line below. */
function actionContent(item) {
  const a = item.action;
  const two = (main, sub) => [h("span", { class: "a-main" }, main), sub ? h("span", { class: "a-sub" }, sub) : null];
  const card = (id) => {
    const info = rawInfo(id);
    return info && !isHidden(id) ? [formulaNode(info.formula), " ", h("span", { class: "a-name" }, pick(info.name))] : cardText(id);
  };
  switch (item.kind) {
    case "move": {
      const path = a.path;
      const via = path.slice(0, -1).map(cellLabel).join(" → ");
      return two(`→ ${cellLabel(path[path.length - 1])}`, via ? t("via", via) : "");
    }
    case "sell":
    case "warehouse":
      return two(card(a.card), "");
    case "take": {
      const pile = S.game?.state?.piles?.[a.pile - 1] || [];
      const top = pile.length ? pile[pile.length - 1] : null;
      return two(t("take_pile", a.pile), top && !isHidden(top) ? card(top) : `${pile.length}`);
    }
    case "trade": {
      const give = [...(a.give || []).map(cardText), ...(a.give_product ? [`${a.give_product.installation}:${a.give_product.card}:${a.give_product.container}`] : [])];
      const get = [...(a.receive || []).map(cardText), ...(a.get_product ? [`${a.get_product.installation}:${a.get_product.card}:${a.get_product.container}`] : [])];
      const lines = [give.length ? `${t("give")}: ${give.join(", ")}` : "", get.length ? `${t("get")}: ${get.join(", ")}` : ""].filter(Boolean).join(" · ");
      return two([dot(a.partner), " ", colourName(a.partner)], lines);
    }
    default:
      return two(describe(item), "");
  }
}

function renderActions(game) {
  const box = $("actions");
  const state = game.state;
  if (state.ended) {
    $("actions-panel").hidden = true;
    return;
  }
  $("actions-panel").hidden = false;
  if (game.viewer !== game.turn && !state.fight) {
    box.replaceChildren(h("p", { class: "not-yours" }, t("not_your_turn", colourName(game.turn, "gen"))));
    return;
  }
  const actions = S.legal?.actions || [];
  if (!actions.length) {
    box.replaceChildren(h("p", { class: "not-yours" }, t("no_actions")));
    return;
  }
  const groups = new Map();
  for (const item of actions) groups.set(item.kind, [...(groups.get(item.kind) || []), item]);
  const kinds = [...groups.keys()].sort((a, b) => KIND_ORDER.indexOf(a) - KIND_ORDER.indexOf(b));
  box.replaceChildren(
    ...kinds.map((kind) => {
      const items = groups.get(kind);
      const buttons = h("div", { class: "buttons" });
      const add = (list) =>
        list.forEach((item) =>
          buttons.append(
            h(
              "button",
              {
                type: "button",
                class: kind === "end" ? "primary action-end" : "",
                dataset: { action: item.text, kind },
                onclick: () => (kind === "trade" || (kind === "free" && item.action.how === "sell-player") ? proposeTrade(item) : play(item.action, { label: item.text })),
              },
              actionContent(item),
            ),
          ),
        );
      add(items.slice(0, FOLD));
      if (items.length > FOLD) {
        const more = h("button", { type: "button", class: "more", onclick: () => { more.remove(); add(items.slice(FOLD)); } }, t("show_all", items.length));
        buttons.append(more);
      }
      return h("div", { class: "group", dataset: { kind } }, h("h3", {}, t("kinds")[kind] || kind), buttons);
    }),
  );
}

/** A trade or a sale to a player: the price is agreed at the table, the partner accepts it. */
function proposeTrade(item) {
  const isTrade = item.kind === "trade";
  const input = h("input", { type: "number", inputmode: "numeric", step: "1", value: String(isTrade ? item.action.pay || 0 : item.action.price || 0), id: "trade-price" });
  const send = () => {
    const price = Number(input.value || 0);
    const action = isTrade ? { ...item.action, pay: price } : { ...item.action, price };
    closeSheet();
    play(action, { label: item.text });
  };
  openSheet(
    isTrade ? t("trade_with", colourName(item.action.partner, "ins")) : t("kinds").free,
    h(
      "div",
      {},
      h("p", {}, describe(item)),
      h("label", { class: "search" }, h("span", {}, t("price")), input),
      isTrade ? h("p", { class: "hint" }, t("price_hint")) : null,
      h("button", { type: "button", class: "primary big", id: "trade-send", onclick: send }, t("propose")),
    ),
  );
}

function renderHand(state, viewer) {
  const panel = $("hand-panel");
  const me = viewer && state.players.find((p) => p.id === viewer);
  if (!me) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  panel.replaceChildren(
    h("h2", {}, dot(me.id), " ", t("hand"), ` · ${me.money} ${t("money")}`),
    me.raw_cards.length ? h("div", { class: "cards", id: "hand" }, me.raw_cards.map((c) => cardNode(c))) : h("p", { class: "hint" }, t("hand_empty")),
  );
}

function renderPlayers(state) {
  const items = state.players.map((player, index) => {
    const combine = player.combine;
    const gear = [combine?.solar_battery ? `☀ ${t("battery")}` : "", combine?.armour ? `⛨ ${t("armour")}` : ""].filter(Boolean).join(" · ");
    const where = combine ? (state.field && combine.position[0] === state.field.base[0] && combine.position[1] === state.field.base[1] ? t("at_base") : cellLabel(combine.position)) : "";
    return h(
      "li",
      { class: index === state.turn ? "current" : "", dataset: { player: player.id } },
      dot(player.id),
      h("span", { class: "name" }, colourName(player.id), where ? h("span", { class: "stat" }, ` · ${where}`) : null, gear ? h("div", { class: "gear stat" }, gear) : null),
      h("span", { class: "stat" }, `${player.money} ${t("money")}`),
      h("span", { class: "stat" }, t("cards_n", player.raw_cards.length)),
      state.level !== "1" ? h("span", { class: "stat" }, t("tokens_n", player.tokens)) : null,
    );
  });
  $("players-panel").replaceChildren(h("h2", {}, t("players_title")), h("ul", { class: "players" }, items));
}

function renderMissions(state) {
  const panel = $("mission-panel");
  const catalogMissions = new Map((S.catalog?.missions || []).map((m) => [m.id, m]));
  let list;
  if (state.level === "1") {
    list = [...catalogMissions.values()].map((m) =>
      h(
        "div",
        { class: `mission${(state.claims || []).some(([, id]) => id === m.id) ? " complete" : ""}`, dataset: { mission: m.id } },
        h("span", { class: "id" }, m.id),
        h("b", {}, pick(m.name)),
        h("div", { class: "target" }, formulaNode(hill(m.elements))),
      ),
    );
    list.unshift(h("p", { class: "hint" }, t("mission_l1_hint")));
  } else {
    list = state.missions.map((m) => {
      const info = catalogMissions.get(m.id);
      const complete = m.places.every(([, tokens]) => tokens.every(Boolean));
      return h(
        "div",
        { class: `mission${complete ? " complete" : ""}`, dataset: { mission: m.id } },
        h("span", { class: "id" }, m.id),
        h("b", {}, info ? pick(info.name) : ""),
        h(
          "div",
          { class: "places" },
          m.places.map(([formula, tokens]) => h("span", { class: "place" }, formulaNode(formula), tokens.map((tok) => (tok ? dot(tok) : h("span", { class: "slot" }))))),
        ),
      );
    });
  }
  panel.replaceChildren(h("h2", {}, t("mission_card")), h("div", { class: "missions" }, list));
}

function renderSupply(state) {
  const boxes = [h("div", { class: "box", id: "bank" }, t("bank"), h("br"), h("b", {}, state.bank), ` ${t("money")}`)];
  if (state.field) {
    const left = state.field.cells.filter((c) => c.raw).length;
    boxes.push(h("div", { class: "box" }, t("field_left"), h("br"), h("b", {}, left)));
  }
  const parts = [h("h2", {}, state.field ? t("supply") : t("supply_piles")), h("div", { class: "supply" }, boxes)];
  if (state.level !== "2" && state.level !== "1v1") {
    parts.push(h("h3", {}, `${t("warehouse")} · ${state.warehouse.length}`), h("div", { class: "cards", id: "warehouse" }, state.warehouse.map((c) => cardNode(c))));
  }
  if (state.piles.length) {
    parts.push(
      h("h3", {}, t("piles")),
      h(
        "div",
        { class: "cards" },
        state.piles.map((pile, i) =>
          h("div", { class: "pile" }, h("div", { class: "hint" }, `${t("pile", i + 1)} · ${pile.length}`), pile.length ? cardNode(pile[pile.length - 1]) : h("span", { class: "card" }, "—")),
        ),
      ),
    );
  }
  if (state.discard.length) parts.push(h("p", { class: "hint" }, `${t("discard")}: ${state.discard.length}`));
  $("supply-panel").replaceChildren(...parts);
}

function renderInstallations(state) {
  const panel = $("installations-panel");
  if (!state.installations.length) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const names = new Map((S.catalog?.installations || []).map((i) => [i.number, i]));
  // The viewer's own installations first, then the other players', then the shared ones.
  const rank = (inst) => (inst.owner === S.game.viewer ? 0 : inst.owner ? 1 : 2);
  panel.replaceChildren(
    h("h2", {}, t("installations")),
    ...[...state.installations]
      .sort((a, b) => rank(a) - rank(b) || a.number - b.number)
      .map((inst) => {
      const info = names.get(inst.number);
      return h(
        "div",
        { class: "installation", dataset: { installation: inst.number } },
        h("b", {}, `${inst.number}. ${info ? pick(info.name) : ""}`),
        " ",
        h("span", { class: "chip" }, inst.owner ? [dot(inst.owner), " ", t("owner", colourName(inst.owner, "gen"))] : t("shared")),
        info?.reaction ? h("div", { class: "arr" }, info.reaction) : null,
        h(
          "div",
          { class: "places" },
          inst.containers
            .filter((c) => c.role === "product")
            .map((c) => h("span", { class: "place", title: `${inst.number}:${c.card}:${c.index}` }, formulaNode(c.substance), c.places.map((tok) => (tok ? dot(tok) : h("span", { class: "slot" }))))),
        ),
      );
    }),
  );
}

// --- The log, the score, the seat ------------------------------------------------------------

async function showLog() {
  if (!S.game) return;
  openSheet(t("log"), h("p", { class: "hint" }, t("rule_loading")));
  try {
    const viewer = S.game.viewer ? `?player=${encodeURIComponent(S.game.viewer)}` : "";
    const { data } = await api(`/api/games/${S.game.id}/log${viewer}`);
    const entries = data.entries || [];
    setSheet(
      t("log"),
      entries.length
        ? h(
            "ol",
            { class: "log", id: "log" },
            [...entries].reverse().map((entry) =>
              h(
                "li",
                { dataset: { seq: entry.seq } },
                h("div", {}, h("b", {}, `${entry.seq}. `), dot(entry.player), " ", h("span", { class: "text" }, entry.text)),
                h("div", { class: "hint" }, cardsInText(pick(entry.ruling?.reason))),
                (entry.events || []).length ? h("ul", { class: "events" }, entry.events.map((e) => h("li", {}, cardsInText(pick(e))))) : null,
                h("div", { class: "rules" }, (entry.ruling?.rules || []).map(ruleChip)),
              ),
            ),
          )
        : h("p", { class: "hint" }, t("log_empty")),
    );
  } catch (error) {
    setSheet(t("log"), h("p", { class: "form-error" }, error.message));
  }
}

/** A score line's words (the server writes them in English) in the page's language. */
function scoreWhat(what) {
  let m = what.match(/^(\d+) raw cards$/);
  if (m) return t("score_raw", Number(m[1]));
  if (what === "money") return t("score_money");
  m = what.match(/^(\S+) on (\S+) \(installation (\d+)\)$/);
  if (m) return t("score_product", m[1], m[2], m[3]);
  m = what.match(/^(\S+) on mission (\S+)(.*)$/);
  if (m) return t("score_mission", m[1], m[2], m[3].trim());
  return what;
}

async function showScore() {
  if (!S.game) return;
  let data = S.game.score ? { ...S.game.score, end: S.game.end } : null;
  try {
    data = (await api(`/api/games/${S.game.id}/score`)).data;
  } catch {
    /* the score that came with the game will do */
  }
  if (!data) return;
  const winners = new Set(data.winners || []);
  const rows = [];
  for (const player of Object.keys(data.totals || {})) {
    const lines = (data.lines || []).filter((line) => line.player === player);
    rows.push(
      h(
        "tr",
        { class: winners.has(player) ? "winner" : "", dataset: { player } },
        h("th", { colspan: 2 }, dot(player), " ", colourName(player)),
        h("th", { class: "num" }, String(data.totals[player])),
      ),
      ...lines.map((line) => h("tr", {}, h("td", {}, scoreWhat(line.what)), h("td", {}, ruleChip(line.rule)), h("td", { class: "num" }, String(line.value)))),
    );
  }
  const end = data.end;
  openSheet(
    t("score_title"),
    h(
      "div",
      { id: "score" },
      end ? h("div", { class: "end-banner" }, h("h2", {}, t("game_over")), h("p", {}, capital(pick(end.reason))), h("div", { class: "rules" }, (end.rules || []).map(ruleChip))) : null,
      h("p", {}, h("b", {}, `${end ? t("winners", winners.size ?? winners.length) : t("leading")}: `), [...winners].map((w) => [dot(w), " ", colourName(w), " "])),
      h("table", { class: "score-table" }, h("tbody", {}, rows)),
      data.ruling ? h("p", { class: "hint" }, pick(data.ruling.reason)) : null,
      data.ruling ? h("div", { class: "rules" }, (data.ruling.rules || []).map(ruleChip)) : null,
    ),
  );
}

async function showSeat() {
  if (!S.game) return;
  const join = await loadJoin();
  const players = S.game.players || S.game.state?.players.map((p) => p.id) || [];
  const choose = (seat) => {
    S.seat = seat;
    localStorage.setItem(STORE.seat(S.game.id), seat);
    S.confirmed = seat === "pass" ? null : seat;
    if (S.confirmed) sessionStorage.setItem(STORE.seat(S.game.id), S.confirmed);
    else sessionStorage.removeItem(STORE.seat(S.game.id));
    closeSheet();
    refresh();
  };
  openSheet(
    t("seat_title"),
    h(
      "div",
      { class: "choices", style: "flex-direction:column" },
      h("button", { type: "button", "aria-checked": String(S.seat === "pass"), role: "radio", onclick: () => choose("pass") }, t("seat_pass"), h("span", { class: "sub" }, t("seat_pass_hint"))),
      players.map((p) => h("button", { type: "button", role: "radio", "aria-checked": String(S.seat === p), dataset: { seat: p }, onclick: () => choose(p) }, dot(p), " ", t("seat_one", colourName(p)))),
      join ? [h("h3", {}, t("join")), joinNode(join)] : null,
    ),
  );
}

// --- The mission checker ---------------------------------------------------------------------

function renderChecker() {
  const c = S.checker;
  const missions = S.catalog.missions;
  if (!c.mission) c.mission = missions[0]?.id;
  choiceButtons(
    "checker-missions",
    missions.map((m) => ({ value: m.id, label: `${m.id} · ${pick(m.name)}`, sub: hill(m.elements) })),
    c.mission,
    (id) => {
      c.mission = id;
      c.ruling = null;
      renderChecker();
    },
  );
  for (const button of $("checker-missions").children) {
    const sub = button.querySelector(".sub");
    if (sub) sub.innerHTML = formulaHtml(sub.textContent);
  }
  const query = c.query.trim().toLowerCase();
  const matches = S.catalog.raw_materials.filter(
    (raw) => !query || raw.formula.toLowerCase().includes(query) || raw.name.ru.toLowerCase().includes(query) || raw.name.en.toLowerCase().includes(query) || raw.id.includes(query),
  );
  $("checker-cards").replaceChildren(
    ...matches.map((raw) =>
      h(
        "button",
        { type: "button", dataset: { raw: raw.id, formula: raw.formula }, onclick: () => changeCount(raw.id, 1) },
        h("b", {}, formulaNode(raw.formula)),
        h("span", { class: "hint" }, pick(raw.name)),
        c.counts.get(raw.id) ? h("span", { class: "count" }, String(c.counts.get(raw.id))) : null,
      ),
    ),
  );
  const chosen = [...c.counts.entries()].filter(([, n]) => n > 0);
  $("checker-chosen").replaceChildren(
    ...(chosen.length
      ? chosen.map(([id, n]) => {
          const raw = S.catalog.raw_materials.find((r) => r.id === id);
          return h("button", { type: "button", dataset: { chosen: id }, title: "−1", onclick: () => changeCount(id, -1) }, formulaNode(raw.formula), n > 1 ? ` ×${n}` : "", " ✕");
        })
      : [h("p", { class: "hint" }, t("nothing_chosen"))]),
  );
  const hand = S.game?.state?.players.find((p) => p.id === S.game.viewer)?.raw_cards || [];
  let useHand = $("checker-hand");
  if (hand.length && !useHand) {
    useHand = h("button", { type: "button", class: "secondary", id: "checker-hand", onclick: () => { c.counts.clear(); hand.forEach((card) => changeCount(rawKind(card), 1, false)); renderChecker(); } }, t("use_hand"));
    $("checker-clear").before(useHand);
  } else if (!hand.length && useHand) useHand.remove();
  renderCheckerRuling();
}

function changeCount(id, delta, redraw = true) {
  const c = S.checker;
  const n = Math.max(0, (c.counts.get(id) || 0) + delta);
  if (n) c.counts.set(id, n);
  else c.counts.delete(id);
  c.ruling = null;
  if (redraw) renderChecker();
}

async function checkMission() {
  const c = S.checker;
  const cards = [...c.counts.entries()].flatMap(([id, n]) => Array(n).fill(id));
  const houseRules = (S.game?.state?.house_rules || []).filter((r) => ["whole-hand", "at-least"].includes(r));
  try {
    const { data } = await api("/api/mission", { mission: c.mission, cards, house_rules: houseRules });
    c.ruling = data.ruling;
  } catch (failure) {
    c.ruling = failure.ruling || { verdict: "outside-rules", reason: { ru: failure.message, en: failure.message }, rules: [] };
  }
  renderCheckerRuling();
  $("checker-ruling").scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function renderCheckerRuling() {
  const ruling = S.checker.ruling;
  if (!ruling) return showRuling("checker-ruling", null);
  const facts = ruling.facts || {};
  const used = facts.cards_used || facts.closest_cards || [];
  const row = (label, node) => h("p", {}, h("b", {}, `${label}: `), node);
  const extra = h(
    "div",
    { class: "facts" },
    facts.needed ? row(t("needed"), h("span", { class: "tally" }, formulaNode(facts.needed_formula || hill(facts.needed)))) : null,
    facts.held ? row(t("held"), h("span", { class: "tally" }, formulaNode(facts.held_formula || hill(facts.held)))) : null,
    used.length
      ? h("div", {}, h("b", {}, `${facts.cards_used ? t("complete_used") : t("closest")}:`), h("div", { class: "cards", id: "checker-used" }, used.map((id) => cardNode(id, facts.cards_used ? "used" : ""))))
      : null,
    facts.missing && Object.keys(facts.missing).length ? row(t("missing"), h("span", { class: "tally", id: "checker-missing" }, formulaNode(hill(facts.missing)))) : null,
    Object.keys(facts.excess_elements || facts.excess || {}).length
      ? row(t("excess"), h("span", { class: "tally", id: "checker-excess" }, formulaNode(hill(facts.excess_elements || facts.excess))))
      : null,
  );
  showRuling("checker-ruling", ruling, { extra });
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
