// The catalog as the page shows it: raw cards, players' colours and their names.

import { formulaNode, h } from "./dom.js";
import { S, pick, t } from "./state.js";

// --- Catalog lookups -------------------------------------------------------------------------

export const rawKind = (card) => String(card).split("#")[0];
export const isHidden = (card) => /^hidden(-fate)?#/.test(card);
export function rawInfo(card) {
  const kind = rawKind(card);
  return S.catalog?.raw_materials.find((r) => r.id === kind) || null;
}
export function colour(id) {
  return S.catalog?.colours.find((c) => c.id === id) || { id, name: { ru: id, en: id }, rgb: "#888" };
}
// A player's colour name; in Russian declined by case («обмен с Красным»), from the catalog.
export const colourName = (id, grammaticalCase = "nom") =>
  (S.lang === "ru" && colour(id).cases?.ru?.[grammaticalCase]) || pick(colour(id).name) || id;
export const dot = (id) => h("span", { class: "dot", style: `background:${colour(id).rgb}`, "aria-hidden": "true" });
export const who = (id) => h("span", { class: "who-inline" }, dot(id), " ", colourName(id));

export function cardNode(card, extra = "") {
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
export function cardsInText(text) {
  return String(text || "").replace(/\b(hidden(?:-fate)?|[a-z][a-z0-9-]*)#\d+\b/g, (id) => {
    if (isHidden(id)) return "▒";
    const info = rawInfo(id);
    return info ? info.formula : id;
  });
}

export const cardText = (card) => {
  if (isHidden(card)) return t("hidden_card");
  const info = rawInfo(card);
  return info ? `${info.formula} ${pick(info.name).toLowerCase()}` : card;
};
