// The home screen: a new game, the saved games, joining from other phones.

import { api } from "./api.js";
import { dot } from "./cards.js";
import { h } from "./dom.js";
import { $, S, STORE, pick, t } from "./state.js";

// --- Home: new game, saved games, join -------------------------------------------------------

export const form = { level: "1", players: 2, shape: "rectangle", house: new Set() };

export function choiceButtons(container, items, current, onPick) {
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

export function renderForm() {
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

export const randomSeed = () => Math.floor(Math.random() * 1_000_000);

export async function renderHome() {
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

export function formatTime(value) {
  if (!value) return "";
  const date = typeof value === "number" ? new Date(value * (value < 1e12 ? 1000 : 1)) : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(S.lang === "ru" ? "ru-RU" : "en-GB", { dateStyle: "short", timeStyle: "short" });
}

export let joinInfo;
/** The join URL and its QR code for a LAN host (null on a loopback host). */
export async function loadJoin() {
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

export function joinNode(info) {
  return h("div", { class: "join" }, h("p", { class: "hint" }, t("join_hint")), h("div", { class: "qr", html: info.svg }), h("p", { class: "join-url" }, info.url));
}

export async function renderJoin() {
  const info = await loadJoin();
  $("join-panel").hidden = !info;
  if (!info) return;
  $("join-qr").innerHTML = info.svg;
  $("join-url").textContent = info.url;
}

export async function startGame(event) {
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
    // The phone that deals is passed round the table unless a player makes it theirs (Seat).
    localStorage.setItem(STORE.seat(data.id), "pass");
    location.hash = `#/game/${data.id}`;
  } catch (failure) {
    error.textContent = failure.message;
    error.hidden = false;
  } finally {
    $("start-game").disabled = false;
  }
}
