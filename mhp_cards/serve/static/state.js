// The page's shared state, its stored settings and the words it shows.

import { STRINGS } from "./i18n.js";

export const $ = (id) => document.getElementById(id);
export const STORE = {
  lang: "mhp.lang",
  game: "mhp.game",
  seat: (id) => `mhp.seat.${id}`,
  keys: (id) => `mhp.keys.${id}`, // {colour: secret}: the seats this phone holds in game id
};

/** The seats this phone holds in game ``id``: {colour: secret}. */
export function seatKeys(id) {
  try {
    const keys = JSON.parse(localStorage.getItem(STORE.keys(id)) || "{}");
    return keys && typeof keys === "object" ? keys : {};
  } catch {
    return {};
  }
}

/** Keep (or, with null, forget) this phone's secret for seat ``player`` of game ``id``. */
export function keepSeatKey(id, player, secret) {
  const keys = seatKeys(id);
  if (secret) keys[player] = secret;
  else delete keys[player];
  localStorage.setItem(STORE.keys(id), JSON.stringify(keys));
}

export const KIND_ORDER = ["fight", "spoils", "retreat", "keep", "pick", "move", "claim", "take", "react", "buy", "warehouse", "sell", "free", "trade", "end"];
export const FOLD = 6; // buttons of one kind shown before "show all"

export const S = {
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

export const t = (key, ...args) => {
  const value = STRINGS[S.lang][key] ?? STRINGS.en[key] ?? key;
  return typeof value === "function" ? value(...args) : value;
};
export const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);
export const pick = (texts) => (texts && (texts[S.lang] ?? texts.en ?? texts.ru)) || "";
