// Rulings and rule texts: the referee's answers with the rules they rest on.

import { api } from "./api.js";
import { cardsInText } from "./cards.js";
import { h, openSheet, setSheet } from "./dom.js";
import { $, S, pick, t } from "./state.js";

// --- Rulings and rule texts ------------------------------------------------------------------

export async function loadRules() {
  if (S.rules) return S.rules;
  const { data } = await api("/api/rules");
  S.rules = new Map();
  for (const rule of [...(data.rules || []), ...(data.house_rules || [])]) S.rules.set(rule.id, rule);
  return S.rules;
}

export async function showRule(id) {
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

export const ruleChip = (id) =>
  h("button", { type: "button", class: "rule-id", dataset: { rule: id }, onclick: () => showRule(id) }, id);

/** A ruling as the players read it: verdict, reason, rule IDs (one tap to the text), events. */
export function rulingNode(ruling, { events = [], note = "", extra = null } = {}) {
  const good = ["allowed", "complete", "score", "ended", "in-progress", "proposal"].includes(ruling.verdict);
  return wrapRuling(good, ruling, events, note, extra);
}

export function wrapRuling(good, ruling, events, note, extra) {
  const box = document.createElement("div");
  box.className = good ? "ok" : "bad";
  box.dataset.verdict = ruling.verdict;
  box.append(
    h("div", { class: "verdict" }, t("verdicts")[ruling.verdict] || ruling.verdict),
    h("p", { class: "reason" }, cardsInText(pick(ruling.reason))),
  );
  if (extra) box.append(extra);
  // An event that says the reason's very sentence again is not shown twice.
  const told = events.filter((e) => pick(e) !== pick(ruling.reason));
  if (told.length) box.append(h("ul", { class: "events" }, told.map((e) => h("li", {}, cardsInText(pick(e))))));
  // A note may be a function: then it is worded in the language the page has now.
  const noteText = typeof note === "function" ? note() : note;
  if (noteText) box.append(h("p", { class: "note" }, noteText));
  box.append(h("div", { class: "rules" }, [...(ruling.rules || []), ...(ruling.house_rules || [])].map(ruleChip)));
  return box;
}

export function showRuling(target, ruling, options = {}) {
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
